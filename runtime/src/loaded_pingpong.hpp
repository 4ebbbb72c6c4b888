#pragma once
// The loaded ping-pong's stream (docs/calibration.md): while the ping-pong's responder answers pings, it sends
// bulk messages to a third rank, so that every reply leaves behind the full queue of the responder's uplink.
// The stream's first bottleneck is its sender's link (a receiving link of the same rate takes it as it comes,
// without a queue: runtime/testbed shapes both directions alike), so the pings must cross the sender's.
// Raw MPI on tags of their own: the responder must progress the stream's sends and the pings at once, which the
// backend's communicator, one operation at a time, cannot.
#include <mpi.h>

#include <vector>

namespace dtsim::runtime {

/// The tags of the pings and of the iteration count the initiator sends the responder; the stream's are others.
inline constexpr int kLoadedPingTag = 7401;
inline constexpr int kLoadedCountTag = 7402;

/// The responder's end of the stream: while it waits for its own messages, bulk messages to `sink` keep
/// leaving, two in flight.
class BulkSender {
public:
    BulkSender(int sink, MPI_Comm comm);
    BulkSender(const BulkSender&) = delete;
    BulkSender& operator=(const BulkSender&) = delete;
    /// Until `count` of the stream's messages have left: by then the stream has filled the queue.
    void wait_for_sent(int count);
    /// MPI_Recv and MPI_Send, sending the stream meanwhile.
    void receive(void* buffer, int count, MPI_Datatype type, int source, int tag);
    void send(const void* buffer, int count, MPI_Datatype type, int dest, int tag);
    /// Ends the stream with the sink (sink_bulk): every message sent is received, none is left unmatched.
    void finish();

private:
    void wait(MPI_Request request);
    /// Waits until `other` completes (made MPI_REQUEST_NULL) or, where it is MPI_REQUEST_NULL, until one of the
    /// stream's sends does; a completed send is followed by the next while fewer than `limit_` were started.
    void step(MPI_Request& other);
    void start_sends();

    int sink_;
    MPI_Comm comm_;
    std::vector<char> data_;             // both sends read it: MPI allows concurrent sends of one buffer
    std::vector<MPI_Request> requests_;  // the two sends, then the responder's own request
    int started_ = 0, completed_ = 0;
    int limit_;  // sends to start in all: unbounded until the stream ends
};

/// The sink's part: receives the stream from `source`, two receives posted, until the source says stop; then
/// says how many it had posted and receives as many as the source then says it sent.
void sink_bulk(int source, MPI_Comm comm);

}  // namespace dtsim::runtime
