#include "time_axis.hpp"

#include <cmath>
#include <cstdio>

namespace dtsim::gui {

std::vector<TimeTick> time_ticks(double t0, double t1, int width_px, int min_spacing_px) {
    std::vector<TimeTick> ticks;
    if (t1 <= t0 || width_px <= 0) return ticks;
    const double min_step = (t1 - t0) * min_spacing_px / width_px;
    const double decade = std::pow(10.0, std::floor(std::log10(min_step)));
    double step = decade;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (decade * m >= min_step) {
            step = decade * m;
            break;
        }
    struct Unit {
        double scale;
        const char* name;
    };
    const Unit unit = step >= 1 ? Unit{1, "s"} : step >= 1e-3 ? Unit{1e3, "ms"} : step >= 1e-6 ? Unit{1e6, "us"} : Unit{1e9, "ns"};
    // Enough decimals that neighbouring labels differ.
    const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step * unit.scale) - 1e-9)));
    for (double k = std::ceil(t0 / step); k * step <= t1 + step * 1e-9; k += 1) {
        char text[48];
        std::snprintf(text, sizeof text, "%.*f %s", decimals, k * step * unit.scale, unit.name);
        ticks.push_back({k * step, text});
    }
    return ticks;
}

}  // namespace dtsim::gui
