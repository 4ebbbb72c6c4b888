#include "dtsim/parallel_layout.hpp"

#include <algorithm>

namespace dtsim {

ParallelLayout::ParallelLayout(const ParallelismSpec& spec) {
    sizes_[index(Dimension::tp)] = spec.tensor;
    sizes_[index(Dimension::cp)] = spec.context;
    sizes_[index(Dimension::ep)] = spec.expert;
    sizes_[index(Dimension::dp)] = spec.data / spec.expert;  // experts are split within the data group
    sizes_[index(Dimension::pp)] = spec.pipeline;
    int stride = 1;
    for (Dimension d : spec.order) {
        strides_[index(d)] = stride;
        stride *= sizes_[index(d)];
    }
    gpus_ = stride;
}

StridedGroup ParallelLayout::group(int rank, Dimension d) const {
    const int stride = strides_[index(d)];
    const int position = coordinate(rank, d);
    return StridedGroup{rank - position * stride, stride, sizes_[index(d)], position};
}

StridedGroup ParallelLayout::data_group(int rank) const {
    // cp, ep and dp are adjacent in the order: together they are one progression from the smallest stride.
    int stride = gpus_, count = 1, position = 0;
    for (Dimension d : {Dimension::cp, Dimension::ep, Dimension::dp}) {
        stride = std::min(stride, strides_[index(d)]);
        count *= sizes_[index(d)];
    }
    int first = rank;
    for (Dimension d : {Dimension::cp, Dimension::ep, Dimension::dp}) {
        first -= coordinate(rank, d) * strides_[index(d)];
        position += coordinate(rank, d) * (strides_[index(d)] / stride);
    }
    return StridedGroup{first, stride, count, position};
}

int ParallelLayout::at_stage(int rank, int stage) const {
    return rank + (stage - coordinate(rank, Dimension::pp)) * strides_[index(Dimension::pp)];
}

}  // namespace dtsim
