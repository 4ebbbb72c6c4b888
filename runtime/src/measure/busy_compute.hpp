#pragma once
// The compute of a measured run. Models given by per-layer times (direct, or zoo layers timed by the
// roofline) are executed as that much real busy time on the worker's core: the CPU is occupied, as a
// GPU would be, and the communication thread has to share what is left of the machine.
namespace dtsim::runtime {

/// Spins until `seconds` have passed on the steady clock.
void busy_wait(double seconds);

}  // namespace dtsim::runtime
