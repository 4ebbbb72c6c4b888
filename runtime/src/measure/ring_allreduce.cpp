#include "ring_allreduce.hpp"

#include <cstddef>

#include "allreduce_algorithms.hpp"
#include "half_precision.hpp"
#include "int8_quantization.hpp"
#include "receive_scratch.hpp"
#include "../mpi_waiting.hpp"

namespace dtsim::runtime {
namespace {

enum class Phases { both, reduce_scatter, allgather };

// The ring over `comm` on data[0, n). After the reduce-scatter, this rank's chunk rank + 1 is complete.
// `add_into(target, incoming, count)` adds a received chunk into the rank's own.
template <typename Element, typename AddInto>
void ring(Element* data, std::size_t n, MPI_Datatype type, AddInto add_into, MPI_Comm comm, int tag, Phases phases) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size == 1) return;
    const std::size_t w = static_cast<std::size_t>(size);
    auto chunk_of = [&](int chunk) { return static_cast<std::size_t>((chunk % size + size) % size); };
    auto first = [&](int chunk) { return chunk_of(chunk) * n / w; };
    auto count = [&](int chunk) { return static_cast<int>((chunk_of(chunk) + 1) * n / w - chunk_of(chunk) * n / w); };
    const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    // Step s of the reduce-scatter sends chunk rank - s and adds the left neighbour's chunk rank - s - 1.
    if (phases != Phases::allgather) {
        Element* const incoming = receive_scratch<Element>(0, n / w + 1);
        for (int s = 0; s < size - 1; ++s) {
            const int send_chunk = rank - s, receive_chunk = rank - s - 1;
            sendrecv(data + first(send_chunk), count(send_chunk), type, right, tag, incoming, count(receive_chunk),
                         type, left, tag, comm);
            add_into(data + first(receive_chunk), incoming, static_cast<std::size_t>(count(receive_chunk)));
        }
    }
    if (phases == Phases::reduce_scatter) return;
    // The all-gather passes complete chunks around.
    for (int s = 0; s < size - 1; ++s) {
        const int send_chunk = rank + 1 - s, receive_chunk = rank - s;
        sendrecv(data + first(send_chunk), count(send_chunk), type, right, tag, data + first(receive_chunk),
                     count(receive_chunk), type, left, tag, comm);
    }
}

// The groups' algorithm over all workers, or the simulator's hierarchical all-reduce: a reduce-scatter
// within the node, an all-reduce of each local rank's complete chunk across nodes, an all-gather within
// the node.
template <typename Element>
void allreduce(std::vector<Element>& values, MPI_Datatype type, AddInto<Element> add, const AllReduceGroups& groups, int tag) {
    switch (groups.algorithm) {
        case AllReduceAlgorithm::tree: return tree_allreduce(values.data(), values.size(), type, add, groups.all, tag);
        case AllReduceAlgorithm::halving_doubling:
            return halving_doubling_allreduce(values.data(), values.size(), type, add, groups.all, tag);
        case AllReduceAlgorithm::direct: return direct_allreduce(values.data(), values.size(), type, add, groups.all, tag);
        case AllReduceAlgorithm::ring:
        case AllReduceAlgorithm::nccl:  // over MPI only for codecs' rings: measurability refuses it otherwise
            return ring(values.data(), values.size(), type, add, groups.all, tag, Phases::both);
        case AllReduceAlgorithm::hierarchical: break;
    }
    int local = 0, per_node = 1;
    MPI_Comm_rank(groups.node, &local);
    MPI_Comm_size(groups.node, &per_node);
    ring(values.data(), values.size(), type, add, groups.node, tag, Phases::reduce_scatter);
    const auto n = values.size(), p = static_cast<std::size_t>(per_node), complete = static_cast<std::size_t>((local + 1) % per_node);
    const std::size_t first = complete * n / p;
    ring(values.data() + first, (complete + 1) * n / p - first, type, add, groups.across, tag, Phases::both);
    ring(values.data(), values.size(), type, add, groups.node, tag, Phases::allgather);
}

void add_floats(float* target, const float* incoming, std::size_t count) {
    for (std::size_t j = 0; j < count; ++j) target[j] += incoming[j];
}

}  // namespace

void allreduce_sum(std::vector<float>& values, const AllReduceGroups& groups, int tag) {
    allreduce<float>(values, MPI_FLOAT, add_floats, groups, tag);
}

void ring_allreduce_sum(float* data, std::size_t n, MPI_Comm comm, int tag) {
    ring(data, n, MPI_FLOAT, add_floats, comm, tag, Phases::both);
}

void ring_reduce_scatter_sum(float* data, std::size_t n, MPI_Comm comm, int tag) {
    ring(data, n, MPI_FLOAT, add_floats, comm, tag, Phases::reduce_scatter);
}

void ring_allgather(unsigned char* blocks, std::size_t block_bytes, MPI_Comm comm, int tag) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const auto block = [&](int b) { return blocks + static_cast<std::size_t>((b % size + size) % size) * block_bytes; };
    const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    for (int s = 0; s < size - 1; ++s)
        sendrecv(block(rank - s), static_cast<int>(block_bytes), MPI_BYTE, right, tag, block(rank - s - 1),
                     static_cast<int>(block_bytes), MPI_BYTE, left, tag, comm);
}

void ring_allgather(std::vector<unsigned char>& blocks, std::size_t block_bytes, MPI_Comm comm, int tag) {
    ring_allgather(blocks.data(), block_bytes, comm, tag);
}

void ring_allreduce_int8(std::vector<float>& values, MPI_Comm comm, int tag) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size == 1) return;
    const std::size_t n = values.size(), w = static_cast<std::size_t>(size);
    auto chunk_of = [&](int chunk) { return static_cast<std::size_t>((chunk % size + size) % size); };
    auto first = [&](int chunk) { return chunk_of(chunk) * n / w; };
    auto count = [&](int chunk) { return (chunk_of(chunk) + 1) * n / w - chunk_of(chunk) * n / w; };
    const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    const auto message_bytes = int8_message_bytes(n / w + 1);
    unsigned char* outgoing = receive_scratch<unsigned char>(0, message_bytes);
    unsigned char* incoming = receive_scratch<unsigned char>(1, message_bytes);
    auto exchange = [&](int send_chunk, int receive_chunk) {
        const auto out_bytes = int8_message_bytes(count(send_chunk)), in_bytes = int8_message_bytes(count(receive_chunk));
        sendrecv(outgoing, static_cast<int>(out_bytes), MPI_BYTE, right, tag, incoming, static_cast<int>(in_bytes),
                     MPI_BYTE, left, tag, comm);
    };
    for (int s = 0; s < size - 1; ++s) {
        const int send_chunk = rank - s, receive_chunk = rank - s - 1;
        quantize_int8(values.data() + first(send_chunk), count(send_chunk), outgoing);
        exchange(send_chunk, receive_chunk);
        dequantize_int8(incoming, count(receive_chunk), values.data() + first(receive_chunk), true);
    }
    // This rank's complete chunk goes out quantized once; it keeps the same rounded values as everyone else.
    const int complete = rank + 1;
    quantize_int8(values.data() + first(complete), count(complete), outgoing);
    dequantize_int8(outgoing, count(complete), values.data() + first(complete), false);
    for (int s = 0; s < size - 1; ++s) {
        const int receive_chunk = rank - s;
        exchange(rank + 1 - s, receive_chunk);
        dequantize_int8(incoming, count(receive_chunk), values.data() + first(receive_chunk), false);
        std::swap(outgoing, incoming);  // pass the very message on
    }
}

void allreduce_sum_half(std::vector<std::uint16_t>& values, const AllReduceGroups& groups, int tag) {
    allreduce<std::uint16_t>(values, MPI_UINT16_T, add_halves, groups, tag);
}

}  // namespace dtsim::runtime
