#pragma once
// Cost-model fitting, pure math over samples (docs/architecture.md: calibrate/ depends on core only).
// Every fit minimises squared *relative* error, Σ((t̂ − t)/t)², so that 8-byte latencies and
// gigabyte transfers weigh alike (docs/hardware-sources.md §10).
#include <functional>
#include <string>
#include <vector>

#include "dtsim/profile.hpp"

namespace dtsim::calibrate {

struct Observation {
    double x = 0;        // bytes, or FLOPs for GEMM
    double seconds = 0;  // measured time, > 0
};

struct SegmentationOptions {
    int max_segments = 4;
    int min_points_per_segment = 3;
    /// An extra segment is kept only when it lowers the RMS relative error by at least this fraction:
    /// noise alone must not create breakpoints.
    double min_improvement = 0.25;
};

/// Piecewise α-β fit with breakpoints found from the data (segmented regression over the sampled
/// sizes). Several observations of one size are allowed. Each segment has a finite positive bandwidth; the
/// first has alpha >= 0, a later one may have alpha < 0 with positive times over its sizes (bytes that went
/// ahead faster before the breakpoint, e.g. a token bucket's burst). Throws std::invalid_argument with fewer than 2 distinct sizes.
PiecewiseAlphaBeta fit_piecewise_alpha_beta(std::vector<Observation> observations,
                                            const SegmentationOptions& options = {});

/// GEMM efficiency curve t = fixed + flops / rate (a one-segment α-β fit in FLOPs).
GemmFit fit_gemm(std::vector<Observation> flops_and_seconds, Precision precision);

/// A codec kernel's time t = fixed + fp32 bytes / rate (a one-segment α-β fit, as fit_gemm in FLOPs);
/// ratio, blocks and rank are copied into the fit as the calibration's settings.
CodecFit fit_codec(std::vector<Observation> bytes_and_seconds, CodecKernel kernel, double ratio = 0,
                   int blocks = 0, int rank = 0);

/// R², median and max relative error of `predict` on the observations.
FitQuality evaluate_fit(const std::vector<Observation>& observations, const std::function<double(double)>& predict);

}  // namespace dtsim::calibrate
