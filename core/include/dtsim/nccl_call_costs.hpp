#pragma once
// What one NCCL call costs beyond its kernel launch when it has the platform to itself, as algorithm: nccl charges
// it (docs/collectives.md): NCCL's modelled latency, the pipeline's fill and its bytes at the busiest link's rate,
// each times the calibrated factor of its protocol.
// The simulator waits the first two and moves the bytes as flows; the calibration of NCCL's latencies from measured
// collectives (nccl_calibration.hpp) subtracts the same terms.
#include <optional>

#include "dtsim/nccl_model.hpp"

namespace dtsim {

struct NcclCallCosts {
    double latency_s = 0;
    double fill_s = 0;
    double bottleneck_s = 0;  // the flows alone on an idle platform
    // The payload bytes per byte the ring's, tree's or PAT's flows move: the protocol's fraction, less where the
    // payload rate stops below fraction·link (LL's ceiling), so that flows at the link's rate carry the payload at it.
    double payload_fraction = 1;
    // The flows carry this many bytes per byte of the call: the calibrated factor on the bytes' time
    // (NcclParameters::bandwidth_scale, in the two terms above), times NCCL's per-channel cap where it binds (nccl_capped_s).
    double bandwidth_scale = 1;
};

/// The costs of `call` run as `choice` over `channels` channels, with `chunk` forcing the pipeline's chunk.
NcclCallCosts nccl_call_costs(const NcclParameters& parameters, const NcclCall& call, NcclChoice choice, int channels,
                              std::optional<double> chunk);

}  // namespace dtsim
