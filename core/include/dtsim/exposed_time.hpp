#pragma once
// Communication a rank waits for: the time a dimension's transfers are in flight while the rank computes
// nothing, by interval arithmetic over its spans.
#include <array>
#include <vector>

#include "dtsim/parallelism.hpp"
#include "dtsim/run.hpp"

namespace dtsim {

/// Indexed by Dimension: the union of each dimension's communication spans of ranks 0..ranks-1 in the
/// iterations from `first_iteration` on, less its overlap with the union of the same rank's compute spans
/// (of any iteration: a gather may prefetch under the next iteration's passes), summed over the ranks.
std::array<double, kDimensions> exposed_time_by_dimension(const std::vector<Span>& spans, int ranks, int first_iteration);

}  // namespace dtsim
