#pragma once
// A profile derived from hardware presets instead of measurements (source: datasheet): what dtsim
// assumes for a machine nobody has calibrated yet. Shipped in data/profiles/ for the presets.
#include <string>

#include "dtsim/hardware.hpp"
#include "dtsim/profile.hpp"

namespace dtsim::calibrate {

/// Point-to-point fits of one segment (the link's latency; line rate × efficiency), a GEMM line per
/// precision the GPU has (the launch cost as fixed time; peak × GEMM efficiency), memory bandwidth
/// × efficiency, and the launch cost.
Profile datasheet_profile(const std::string& name, const GpuPreset& gpu, const NetworkPreset& intra_node,
                          const NetworkPreset& nic);

}  // namespace dtsim::calibrate
