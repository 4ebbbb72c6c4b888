#include "loaded_pingpong.hpp"

#include <algorithm>
#include <array>
#include <climits>

#include "mpi_waiting.hpp"

namespace dtsim::runtime {
namespace {

// Each bulk message: tens of ms at hundreds of Mbit/s, so that two in flight keep a queue of the testbed's
// (20-100 ms) full.
constexpr int kBulkBytes = 4 << 20;
constexpr int kBulkTag = 7403;
// Ending the stream: stop (source to sink, behind the stream), the receives the sink had posted (sink to
// source), the messages the source sent in all (source to sink).
constexpr int kStopTag = 7404;
constexpr int kPostedTag = 7405;
constexpr int kSentTag = 7406;

}  // namespace

BulkSender::BulkSender(int sink, MPI_Comm comm)
    : sink_(sink), comm_(comm), data_(kBulkBytes), requests_(3, MPI_REQUEST_NULL), limit_(INT_MAX) {
    start_sends();
}

void BulkSender::start_sends() {
    for (size_t slot = 0; slot < 2 && started_ < limit_; ++slot)
        if (requests_[slot] == MPI_REQUEST_NULL) {
            MPI_Isend(data_.data(), kBulkBytes, MPI_BYTE, sink_, kBulkTag, comm_, &requests_[slot]);
            ++started_;
        }
}

void BulkSender::step(MPI_Request& other) {
    requests_[2] = other;
    MPI_Status status;
    const int index = wait_any(requests_, status);
    other = requests_[2];
    if (index == 2) return;
    ++completed_;
    start_sends();
}

void BulkSender::wait(MPI_Request request) {
    while (request != MPI_REQUEST_NULL) step(request);
}

void BulkSender::wait_for_sent(int count) {
    MPI_Request none = MPI_REQUEST_NULL;
    while (completed_ < count) step(none);
}

void BulkSender::receive(void* buffer, int count, MPI_Datatype type, int source, int tag) {
    MPI_Request request;
    MPI_Irecv(buffer, count, type, source, tag, comm_, &request);
    wait(request);
}

void BulkSender::send(const void* buffer, int count, MPI_Datatype type, int dest, int tag) {
    MPI_Request request;
    MPI_Isend(buffer, count, type, dest, tag, comm_, &request);
    wait(request);
}

// No send is started that the sink has no receive for, nor a receive posted that no send matches, without
// MPI_Cancel: a send beyond the sink's receives (started before the stop) completes on its own where it is
// eager and is matched once the sink learns how many there are where it is not.
void BulkSender::finish() {
    limit_ = started_;
    const int stop = 0;
    send(&stop, 1, MPI_INT, sink_, kStopTag);
    int posted = 0;
    receive(&posted, 1, MPI_INT, sink_, kPostedTag);
    limit_ = std::max(started_, posted);
    MPI_Request none = MPI_REQUEST_NULL;
    for (start_sends(); started_ < limit_;) step(none);
    const int sent = started_;
    MPI_Isend(&sent, 1, MPI_INT, sink_, kSentTag, comm_, &requests_[2]);
    wait_all(requests_);
}

void sink_bulk(int source, MPI_Comm comm) {
    std::array<std::vector<char>, 2> buffers{std::vector<char>(kBulkBytes), std::vector<char>(kBulkBytes)};
    std::vector<MPI_Request> requests(3, MPI_REQUEST_NULL);  // the two receives, then each message of the ending
    int posted = 0, received = 0, limit = INT_MAX;
    auto post = [&] {
        for (size_t slot = 0; slot < buffers.size() && posted < limit; ++slot)
            if (requests[slot] == MPI_REQUEST_NULL) {
                MPI_Irecv(buffers[slot].data(), kBulkBytes, MPI_BYTE, source, kBulkTag, comm, &requests[slot]);
                ++posted;
            }
    };
    MPI_Status status;
    auto receive_until_ending_message = [&] {
        while (wait_any(requests, status) != 2) {
            ++received;
            post();
        }
    };
    post();
    int stop = 0;
    MPI_Irecv(&stop, 1, MPI_INT, source, kStopTag, comm, &requests[2]);
    receive_until_ending_message();
    limit = posted;
    MPI_Isend(&posted, 1, MPI_INT, source, kPostedTag, comm, &requests[2]);
    receive_until_ending_message();
    int sent = 0;
    MPI_Irecv(&sent, 1, MPI_INT, source, kSentTag, comm, &requests[2]);
    receive_until_ending_message();
    limit = sent;
    for (post(); received < sent; post()) {
        wait_any(requests, status);
        ++received;
    }
}

}  // namespace dtsim::runtime
