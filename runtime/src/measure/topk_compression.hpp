#pragma once
// Top-k sparsification of a gradient bucket: the k entries of largest magnitude travel as (index, value)
// pairs; with error feedback the rest is kept as a residual and added to the next iteration's gradient.
// Dropping entries loses at most ||v||² (1 - k/n) of the squared norm (the k largest are kept).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dtsim::runtime {

struct SparseEntry {
    std::uint32_t index = 0;
    float value = 0;
};
static_assert(sizeof(SparseEntry) == 8, "sent as raw bytes: 4-byte index, 4-byte value");

/// round(ratio × elements), at least 1 and at most `elements`.
std::size_t topk_count(std::size_t elements, double ratio);

/// An encoder's scratch, kept between calls as a framework keeps a GPU kernel's workspace: allocating it per
/// call would time the operating system's page faults (docs/fidelity.md, "Page faults in the measured runs").
struct TopkWorkspace {
    std::vector<float> corrected;
    std::vector<std::uint32_t> order;
};

/// Selects the k largest magnitudes of values (+ residual when given); the residual becomes what was left.
void topk_encode(const std::vector<float>& values, std::size_t k, std::vector<float>* residual, TopkWorkspace& workspace,
                 std::vector<SparseEntry>& out);

/// `values` becomes the sum of every entry in `entries` (zero elsewhere).
void topk_decode_sum(const std::vector<SparseEntry>& entries, std::vector<float>& values);

}  // namespace dtsim::runtime
