#pragma once
// Tick positions and labels of a time axis: a 1-2-5 step, labelled in the unit that suits it (s, ms, us, ns).
#include <string>
#include <vector>

namespace dtsim::gui {

struct TimeTick {
    double time_s = 0;
    std::string label;
};

/// Ticks in [t0, t1] at least `min_spacing_px` apart on an axis `width_px` wide.
std::vector<TimeTick> time_ticks(double t0, double t1, int width_px, int min_spacing_px);

}  // namespace dtsim::gui
