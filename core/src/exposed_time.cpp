#include "dtsim/exposed_time.hpp"

#include <algorithm>

#include "dtsim/timeline_names.hpp"

namespace dtsim {
namespace {

struct Interval {
    double start = 0;
    double end = 0;
};

// Sorted, disjoint intervals covering the same time.
std::vector<Interval> merged(std::vector<Interval> intervals) {
    std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::vector<Interval> out;
    for (const auto& i : intervals) {
        if (i.end <= i.start) continue;
        if (!out.empty() && i.start <= out.back().end)
            out.back().end = std::max(out.back().end, i.end);
        else
            out.push_back(i);
    }
    return out;
}

// Time in `covered` (sorted, disjoint) that `cover` (sorted, disjoint) does not cover.
double uncovered(const std::vector<Interval>& covered, const std::vector<Interval>& cover) {
    double total = 0;
    size_t c = 0;
    for (const auto& i : covered) {
        double overlap = 0;
        while (c < cover.size() && cover[c].end <= i.start) ++c;
        for (size_t k = c; k < cover.size() && cover[k].start < i.end; ++k)
            overlap += std::min(i.end, cover[k].end) - std::max(i.start, cover[k].start);
        total += i.end - i.start - overlap;
    }
    return total;
}

}  // namespace

std::array<double, kDimensions> exposed_time_by_dimension(const std::vector<Span>& spans, int ranks, int first_iteration) {
    const auto count = static_cast<size_t>(ranks);
    std::vector<std::vector<Interval>> compute(count);
    std::vector<std::array<std::vector<Interval>, kDimensions>> comm(count);
    for (const auto& span : spans) {
        if (span.rank < 0 || span.rank >= ranks) continue;
        const auto rank = static_cast<size_t>(span.rank);
        if (span.lane == Lane::compute) compute[rank].push_back({span.start_s, span.end_s});
        if (span.lane != Lane::comm || span.iteration < first_iteration) continue;
        if (const auto dimension = span_dimension(span.name))
            comm[rank][static_cast<size_t>(*dimension)].push_back({span.start_s, span.end_s});
    }
    std::array<double, kDimensions> exposed{};
    for (size_t rank = 0; rank < count; ++rank) {
        const auto busy = merged(std::move(compute[rank]));
        for (size_t d = 0; d < exposed.size(); ++d) exposed[d] += uncovered(merged(std::move(comm[rank][d])), busy);
    }
    return exposed;
}

}  // namespace dtsim
