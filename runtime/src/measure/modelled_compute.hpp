#pragma once
// The compute of a measured run given as modelled times (direct models, or zoo layers timed by the
// roofline), and how the run holds the device for them.
namespace dtsim::runtime {

enum class ComputeMode {
    busy,   // spin on the worker's core for the modelled time: the CPU is occupied, as a GPU would be, and the
            // communication thread has what is left of the machine
    sleep,  // sleep for the modelled time: an emulated device that takes no core, for hosts with more ranks
            // than cores (runtime/testbed), where spinning ranks would steal the network stack's CPU
    gemm,   // each layer's FLOPs as fp32 GEMMs on the CPU device (layer_gemms.hpp)
};

/// Holds the device for `seconds` of modelled time: spins, or (ComputeMode::sleep) sleeps until then.
void hold_device(double seconds, ComputeMode mode);

}  // namespace dtsim::runtime
