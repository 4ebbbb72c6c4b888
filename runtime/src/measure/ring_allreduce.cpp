#include "ring_allreduce.hpp"

#include <cstddef>

namespace dtsim::runtime {

void ring_allreduce(std::vector<float>& values, MPI_Comm comm, int tag) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size == 1) return;
    const std::size_t n = values.size(), w = static_cast<std::size_t>(size);
    auto first = [&](int chunk) { return static_cast<std::size_t>((chunk % size + size) % size) * n / w; };
    auto count = [&](int chunk) {
        const int c = (chunk % size + size) % size;
        return static_cast<int>(static_cast<std::size_t>(c + 1) * n / w - static_cast<std::size_t>(c) * n / w);
    };
    const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    std::vector<float> incoming(n / w + 1);
    // Step s of the reduce-scatter sends chunk rank - s and adds the left neighbour's chunk rank - s - 1.
    for (int s = 0; s < size - 1; ++s) {
        const int send_chunk = rank - s, receive_chunk = rank - s - 1;
        MPI_Sendrecv(values.data() + first(send_chunk), count(send_chunk), MPI_FLOAT, right, tag, incoming.data(),
                     count(receive_chunk), MPI_FLOAT, left, tag, comm, MPI_STATUS_IGNORE);
        float* target = values.data() + first(receive_chunk);
        for (int j = 0; j < count(receive_chunk); ++j) target[j] += incoming[static_cast<std::size_t>(j)];
    }
    // Now chunk rank + 1 is complete here; the all-gather passes complete chunks around.
    for (int s = 0; s < size - 1; ++s) {
        const int send_chunk = rank + 1 - s, receive_chunk = rank - s;
        MPI_Sendrecv(values.data() + first(send_chunk), count(send_chunk), MPI_FLOAT, right, tag,
                     values.data() + first(receive_chunk), count(receive_chunk), MPI_FLOAT, left, tag, comm, MPI_STATUS_IGNORE);
    }
}

}  // namespace dtsim::runtime
