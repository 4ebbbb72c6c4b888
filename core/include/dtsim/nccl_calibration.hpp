#pragma once
// NCCL's latencies and bandwidths calibrated from measured collectives (docs/collectives.md, "Calibrated latencies
// and bandwidths"): a profile measured with NCCL (`dtsim-runtime calibrate --backend nccl`, or nccl-tests logs) times
// collectives at many sizes; what each took beyond its launch and its routes' latency is NCCL's latency plus its
// bytes' time (the pipeline's fill and the busiest link's), which one factor per protocol on each term fits.
#include <array>
#include <vector>

#include "dtsim/nccl_model.hpp"

namespace dtsim {

/// One measured collective: its shape as NCCL's model sees it and one call's time, back to back (nccl-tests' time).
struct NcclMeasurement {
    NcclCall call;
    int channels = 1;
    double route_latency_s = 0;  // what the simulated flows' routes add once per call
    double seconds = 0;
};

struct NcclCalibration {
    NcclParameters parameters;          // the published ones with latency_scale and bandwidth_scale set
    std::array<int, 3> measurements{};  // per protocol (LL, LL128, Simple), the measurements its factors were fitted on
    std::array<bool, 3> bandwidth_fitted{};  // whether those measurements weighed the bandwidth enough to fit its factor
};

/// NCCL picks each call's algorithm and protocol with its own modelled costs, whatever the calls then take, so each
/// measurement's choice is the published model's (`published`). Per protocol, over the measurements NCCL's model runs
/// with it (any algorithm): measured − launch − route latency = a × modelled latency + b × modelled bytes' time
/// (fill and bottleneck), least squares in relative error. b is fitted where at least two of them spend a third or
/// more of their modelled time on bytes, else it stays 1 and a alone is fitted; a is at least 0 and b more than 0.
/// A protocol no measurement ran keeps 1 and 1.
NcclCalibration calibrate_nccl(const NcclParameters& published, const std::vector<NcclMeasurement>& measured, double launch_s);

}  // namespace dtsim
