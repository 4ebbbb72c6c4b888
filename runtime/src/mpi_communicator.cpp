#include "mpi_communicator.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "measure/ring_allreduce.hpp"
#include "mpi_waiting.hpp"

namespace dtsim::runtime {
namespace {

constexpr int kDataTag = 17;

void check_mpi_text(int code, const std::string& what) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(what + " failed: " + std::string(text, static_cast<size_t>(length)));
}

int elements(std::size_t bytes) { return static_cast<int>(bytes / sizeof(float)); }

}  // namespace

MpiCommunicator::MpiCommunicator(const MpiContext& context) : context_(context) {}

MpiCommunicator::~MpiCommunicator() {
    for (auto& [size, comm] : groups_)
        if (comm != MPI_COMM_NULL && comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
}

void MpiCommunicator::prepare(std::size_t bytes, const std::vector<int>& group_sizes) {
    send_.assign(bytes / sizeof(float) + 1, 1.0f);
    receive_.assign(bytes / sizeof(float) + 1, 0.0f);
    for (int size : group_sizes) {
        if (groups_.count(size)) continue;
        if (size == context_.size()) {
            groups_[size] = MPI_COMM_WORLD;
            continue;
        }
        MPI_Comm comm = MPI_COMM_NULL;
        const int color = context_.rank() < size ? 0 : MPI_UNDEFINED;
        check_mpi_text(MPI_Comm_split(MPI_COMM_WORLD, color, context_.rank(), &comm), "MPI_Comm_split");
        groups_[size] = comm;
    }
}

void MpiCommunicator::start_collective(NetworkOp op, std::size_t bytes, int ranks) {
    const MPI_Comm comm = groups_.at(ranks);
    if (comm == MPI_COMM_NULL) return;
    float* in = send_.data();
    float* out = receive_.data();
    const int count = elements(bytes);
    const int share = count / ranks;  // per-rank chunk of the collectives whose size is the whole array
    // All-reduce and all-gather are the measured runs' own rings (measure/ring_allreduce.hpp), which are the
    // simulator's: a profile then describes what `dtsim-runtime measure` executes. Out of place, as MPI's.
    if (op == NetworkOp::allreduce) {
        std::copy(in, in + count, out);
        ring_allreduce_sum(out, static_cast<std::size_t>(count), comm, kDataTag);
    } else if (op == NetworkOp::allgather) {
        int rank = 0;
        MPI_Comm_rank(comm, &rank);
        std::copy(in, in + share, out + static_cast<std::ptrdiff_t>(rank) * share);
        ring_allgather(reinterpret_cast<unsigned char*>(out), static_cast<std::size_t>(share) * sizeof(float), comm, kDataTag);
    } else if (op == NetworkOp::reducescatter) {
        // MPI_Reduce_scatter rather than its _block form: Open MPI's tuned ring algorithm exists only for it.
        const std::vector<int> counts(static_cast<size_t>(ranks), share);
        check_mpi_text(MPI_Reduce_scatter(in, out, counts.data(), MPI_FLOAT, MPI_SUM, comm), "MPI_Reduce_scatter");
    } else if (op == NetworkOp::broadcast) {
        check_mpi_text(MPI_Bcast(in, count, MPI_FLOAT, 0, comm), "MPI_Bcast");
    } else if (op == NetworkOp::alltoall) {
        check_mpi_text(MPI_Alltoall(in, share, MPI_FLOAT, out, share, MPI_FLOAT, comm), "MPI_Alltoall");
    } else {
        throw std::invalid_argument("not a collective: '" + std::string(to_string(op)) + "'");
    }
}

// Point-to-point waits as mpi_waiting.hpp says (spinning by default, testing and sleeping with a poll
// interval), as the measured runs' own exchanges do.
void MpiCommunicator::start_send(int peer, std::size_t bytes) {
    MPI_Request request = MPI_REQUEST_NULL;
    const int count = std::max(1, elements(bytes));
    check_mpi_text(MPI_Isend(send_.data(), count, MPI_FLOAT, peer, kDataTag, MPI_COMM_WORLD, &request), "MPI_Isend");
    wait_one(request);
}

void MpiCommunicator::start_recv(int peer, std::size_t bytes) {
    receive(receive_.data(), std::max(1, elements(bytes)), MPI_FLOAT, peer, kDataTag, MPI_COMM_WORLD);
}

void MpiCommunicator::start_sendrecv(int to, int from, std::size_t bytes) {
    // The ring all-reduce's own exchange.
    const int count = std::max(1, elements(bytes));
    sendrecv(send_.data(), count, MPI_FLOAT, to, kDataTag, receive_.data(), count, MPI_FLOAT, from, kDataTag, MPI_COMM_WORLD);
}

}  // namespace dtsim::runtime
