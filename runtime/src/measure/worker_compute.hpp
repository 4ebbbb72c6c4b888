#pragma once
// A worker's compute in one iteration: forward, then backward bucket by bucket (a bucket's layers back to
// back, in reverse order), handing each gradient bucket over as soon as its last layer is done (or all of them at the end without
// overlap), as the simulator's compute schedule does. Stragglers slow it, jitter it and pause it with the
// simulator's own seeded draws (extra real device time). Compute holds the device for the modelled times
// (modelled_compute.hpp), or runs as GEMMs on it (layer_gemms.hpp).
#include <functional>

#include "measure_setup.hpp"

namespace dtsim::runtime {

void compute_iteration(MeasureSetup& setup, int iteration, const std::function<void(int bucket)>& bucket_ready);

}  // namespace dtsim::runtime
