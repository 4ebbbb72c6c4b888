#pragma once
// NCCL's latencies calibrated from measured collectives (docs/collectives.md, "Calibrated latencies"): a profile
// measured with NCCL (`dtsim-runtime calibrate --backend nccl`, or nccl-tests logs) times collectives at many sizes;
// what each took beyond its launch, its routes' latency and NCCL's pipeline and bandwidth terms is its latency,
// which one factor per protocol on NCCL's modelled latencies fits.
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

struct NcclLatencyCalibration {
    NcclParameters parameters;          // the published ones with latency_scale set
    std::array<int, 3> measurements{};  // per protocol (LL, LL128, Simple), the measurements its factor was fitted on
};

/// NCCL picks each call's algorithm and protocol with its own modelled latencies, whatever the calls then take, so
/// each measurement's choice is the published model's (`published`). Each protocol's factor is the least-squares
/// fit, in relative error, of measured − launch − route latency − fill − bytes at the bottleneck = factor × the
/// modelled latency, over the measurements NCCL's model runs with that protocol (any algorithm). At least 0 (a
/// latency is never negative); a protocol no measurement ran keeps 1.
NcclLatencyCalibration calibrate_nccl_latencies(const NcclParameters& published, const std::vector<NcclMeasurement>& measured,
                                                double launch_s);

}  // namespace dtsim
