#include "mpi_waiting.hpp"

#include <sys/prctl.h>
#include <time.h>

#include <algorithm>

namespace dtsim::runtime {
namespace {

long sleep_ns = 0;

void pause() {
    const timespec interval{0, sleep_ns};
    nanosleep(&interval, nullptr);
}

}  // namespace

void set_wait_sleep(double seconds) {
    sleep_ns = static_cast<long>(seconds * 1e9);
    // Linux lets a normal thread's sleep overrun by its timer slack, 50 us by default: more than the
    // intervals worth asking for. 1 ns makes a sleep end when asked (threads started later inherit it).
    if (sleep_ns > 0) prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

IdleWaits::IdleWaits(bool idle, double seconds) : saved_ns_(sleep_ns) {
    if (idle) sleep_ns = std::max(sleep_ns, static_cast<long>(seconds * 1e9));
}

IdleWaits::~IdleWaits() { sleep_ns = saved_ns_; }

void wait_all(std::vector<MPI_Request>& requests) {
    const int count = static_cast<int>(requests.size());
    if (sleep_ns == 0) {
        MPI_Waitall(count, requests.data(), MPI_STATUSES_IGNORE);
        return;
    }
    int done = 0;
    while (MPI_Testall(count, requests.data(), &done, MPI_STATUSES_IGNORE), !done) pause();
}

void wait_one(MPI_Request& request) {
    if (sleep_ns == 0) {
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        return;
    }
    int done = 0;
    while (MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done) pause();
}

int wait_any(std::vector<MPI_Request>& requests, MPI_Status& status) {
    const int count = static_cast<int>(requests.size());
    int index = MPI_UNDEFINED;
    if (sleep_ns == 0) {
        MPI_Waitany(count, requests.data(), &index, &status);
        return index;
    }
    int done = 0;
    while (MPI_Testany(count, requests.data(), &index, &done, &status), !done) pause();
    return index;
}

void sendrecv(const void* send, int send_count, MPI_Datatype send_type, int dest, int send_tag, void* receive, int receive_count,
              MPI_Datatype receive_type, int source, int receive_tag, MPI_Comm comm) {
    if (sleep_ns == 0) {
        MPI_Sendrecv(send, send_count, send_type, dest, send_tag, receive, receive_count, receive_type, source, receive_tag, comm,
                     MPI_STATUS_IGNORE);
        return;
    }
    std::vector<MPI_Request> requests(2);
    MPI_Irecv(receive, receive_count, receive_type, source, receive_tag, comm, &requests[0]);
    MPI_Isend(send, send_count, send_type, dest, send_tag, comm, &requests[1]);
    wait_all(requests);
}

void receive(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm) {
    MPI_Request request;
    MPI_Irecv(buffer, count, type, source, tag, comm, &request);
    wait_one(request);
}

}  // namespace dtsim::runtime
