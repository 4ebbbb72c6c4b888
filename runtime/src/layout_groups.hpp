#pragma once
// Where a rank's layout groups lie among the workers, for the backends that split a communicator per group.
#include "dtsim/parallel_layout.hpp"
#include "layout_channel.hpp"

namespace dtsim::runtime {

inline constexpr LayoutGroup kLayoutGroups[] = {LayoutGroup::tp, LayoutGroup::cp, LayoutGroup::ep, LayoutGroup::data,
                                                LayoutGroup::expert_data};

/// Expert layers' gradients are reduced over dp alone; dense ones over cp, ep and dp together.
inline StridedGroup layout_group(const ParallelLayout& layout, int rank, LayoutGroup group) {
    switch (group) {
        case LayoutGroup::tp: return layout.group(rank, Dimension::tp);
        case LayoutGroup::cp: return layout.group(rank, Dimension::cp);
        case LayoutGroup::ep: return layout.group(rank, Dimension::ep);
        case LayoutGroup::data: return layout.data_group(rank);
        case LayoutGroup::expert_data: return layout.group(rank, Dimension::dp);
    }
    return {};
}

}  // namespace dtsim::runtime
