#include "busy_compute.hpp"

#include "aligned_clock.hpp"

namespace dtsim::runtime {

void busy_wait(double seconds) {
    if (seconds <= 0) return;
    const double until = steady_seconds() + seconds;
    while (steady_seconds() < until) {
    }
}

}  // namespace dtsim::runtime
