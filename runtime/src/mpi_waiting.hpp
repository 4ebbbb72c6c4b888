#pragma once
// Waiting on MPI requests without holding a core. Open MPI's blocking calls poll the network in a loop
// (with mpi_yield_when_idle they yield between polls, which the scheduler barely honours). Where ranks
// share cores with each other and with the kernel's network stack (runtime/testbed: 4 hosts on
// 2 cores), those polls take the CPU time the transfers need. These waits test the requests and sleep a
// short while between tests; the kernel keeps receiving into the socket buffers meanwhile.
#include <mpi.h>

#include <vector>

namespace dtsim::runtime {

/// How long a waiting rank sleeps between tests of its requests; 0 (default) waits in MPI's own blocking
/// calls. Set once at start-up, before any wait.
void set_wait_sleep(double seconds);

/// While alive, this rank's waits sleep at least `seconds` between tests when `idle` is true: a rank left
/// out of the operation being timed (the other two ranks of 4 during a ping-pong) would
/// otherwise poll on the cores that the timed ranks and the kernel's network stack need. Untimed waits
/// only: the timed ranks leave the next barrier up to that much later.
class IdleWaits {
public:
    IdleWaits(bool idle, double seconds);
    ~IdleWaits();
    IdleWaits(const IdleWaits&) = delete;
    IdleWaits& operator=(const IdleWaits&) = delete;

private:
    long saved_ns_;
};

void wait_all(std::vector<MPI_Request>& requests);
void wait_one(MPI_Request& request);
/// The index of a request that completed (made MPI_REQUEST_NULL), and its status.
int wait_any(std::vector<MPI_Request>& requests, MPI_Status& status);
/// MPI_Sendrecv's exchange: receive from `source` while sending to `dest`.
void sendrecv(const void* send, int send_count, MPI_Datatype send_type, int dest, int send_tag, void* receive, int receive_count,
              MPI_Datatype receive_type, int source, int receive_tag, MPI_Comm comm);
/// MPI_Recv.
void receive(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm);

}  // namespace dtsim::runtime
