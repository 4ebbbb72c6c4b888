#pragma once
// Where each rank of a parallel layout sits: its coordinate along every dimension, and the ranks it
// shares a tensor, context, expert, data or pipeline group with (docs/llm.md, "Layout").
#include <array>
#include <vector>

#include "dtsim/parallelism.hpp"

namespace dtsim {

/// A group of ranks: first, first + stride, ... (count of them). Every group of a layout is such a
/// progression, because each dimension has one stride.
struct StridedGroup {
    int first = 0;
    int stride = 1;
    int count = 1;
    int position = 0;  // the asking rank's index in it
    int rank_at(int index) const { return first + index * stride; }
};

class ParallelLayout {
public:
    /// `data` must already be resolved; the sizes' product is the number of GPUs.
    explicit ParallelLayout(const ParallelismSpec& spec);

    int gpus() const { return gpus_; }
    int size(Dimension d) const { return sizes_[index(d)]; }
    int coordinate(int rank, Dimension d) const { return rank / strides_[index(d)] % sizes_[index(d)]; }
    /// The ranks that differ from `rank` only along `d`.
    StridedGroup group(int rank, Dimension d) const;
    /// The dense parameters' data-parallel group: the ranks that differ along ep and dp only, which must be
    /// adjacent in the order for this to be one progression (the loader checks it).
    StridedGroup data_group(int rank) const;
    /// The rank at the same coordinates but `stage` along the pipeline.
    int at_stage(int rank, int stage) const;

private:
    static int index(Dimension d) { return static_cast<int>(d); }
    std::array<int, kDimensions> sizes_{};
    std::array<int, kDimensions> strides_{};
    int gpus_ = 1;
};

}  // namespace dtsim
