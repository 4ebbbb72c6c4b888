#include "modelled_compute.hpp"

#include <time.h>

#include <cmath>

#include "aligned_clock.hpp"

namespace dtsim::runtime {

void hold_device(double seconds, ComputeMode mode) {
    if (seconds <= 0) return;
    if (mode == ComputeMode::sleep) {
        // To an absolute deadline on the steady clock, so that an early wake-up sleeps on.
        timespec deadline{};
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        const double whole = std::floor(seconds);
        deadline.tv_sec += static_cast<time_t>(whole);
        deadline.tv_nsec += static_cast<long>((seconds - whole) * 1e9);
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec += 1;
            deadline.tv_nsec -= 1000000000L;
        }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr) != 0) {
        }
        return;
    }
    const double until = steady_seconds() + seconds;
    while (steady_seconds() < until) {
    }
}

}  // namespace dtsim::runtime
