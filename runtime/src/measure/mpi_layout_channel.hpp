#pragma once
// The MPI layout channel: one communicator per group (MPI_Comm_split keyed on the group's first rank),
// and the runtime's own ring reduce-scatter, all-gather and all-reduce on them (the rings calibration
// times with --backend mpi); an all-to-all exchanges with every peer at once.
#include <mpi.h>

#include <array>
#include <vector>

#include "../layout_channel.hpp"
#include "dtsim/parallel_layout.hpp"

namespace dtsim::runtime {

class MpiLayoutChannel : public LayoutChannel {
public:
    /// Collective over `workers`: every worker makes its channels in the same order.
    MpiLayoutChannel(MPI_Comm workers, const ParallelLayout& layout, int rank);
    ~MpiLayoutChannel() override;
    MpiLayoutChannel(const MpiLayoutChannel&) = delete;
    MpiLayoutChannel& operator=(const MpiLayoutChannel&) = delete;

    int size(LayoutGroup group) const override;
    void collective(LayoutGroup group, GroupOp op, std::size_t bytes) override;

private:
    std::array<MPI_Comm, 5> comms_{};
    std::vector<float> buffer_;  // what travels: its contents do not matter, its size does
};

}  // namespace dtsim::runtime
