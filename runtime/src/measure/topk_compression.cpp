#include "topk_compression.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dtsim::runtime {

std::size_t topk_count(std::size_t elements, double ratio) {
    const auto k = static_cast<std::size_t>(std::llround(ratio * static_cast<double>(elements)));
    return std::clamp<std::size_t>(k, 1, elements);
}

void topk_encode(const std::vector<float>& values, std::size_t k, std::vector<float>* residual, TopkWorkspace& workspace,
                 std::vector<SparseEntry>& out) {
    auto& corrected = workspace.corrected;
    corrected.assign(values.begin(), values.end());
    if (residual) {
        residual->resize(values.size(), 0.0f);
        for (std::size_t i = 0; i < values.size(); ++i) corrected[i] += (*residual)[i];
    }
    auto& order = workspace.order;
    order.resize(values.size());
    std::iota(order.begin(), order.end(), 0u);
    // Ties broken by index, so that every rank selects alike from equal data.
    auto larger = [&](std::uint32_t a, std::uint32_t b) {
        const float ma = std::abs(corrected[a]), mb = std::abs(corrected[b]);
        return ma > mb || (ma == mb && a < b);
    };
    std::nth_element(order.begin(), order.begin() + static_cast<long>(k - 1), order.end(), larger);
    out.clear();
    for (std::size_t i = 0; i < k; ++i) out.push_back({order[i], corrected[order[i]]});
    if (!residual) return;
    std::swap(*residual, corrected);  // the old residual's memory is the next call's scratch
    for (const auto& e : out) (*residual)[e.index] = 0.0f;
}

void topk_decode_sum(const std::vector<SparseEntry>& entries, std::vector<float>& values) {
    std::fill(values.begin(), values.end(), 0.0f);
    for (const auto& e : entries) values[e.index] += e.value;
}

}  // namespace dtsim::runtime
