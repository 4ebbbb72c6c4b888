#pragma once
// The time window a timeline shows, inside [0, extent]: zoom around an anchor, pan by a fraction.
#include <algorithm>

namespace dtsim::gui {

class VisibleRange {
public:
    void set_extent(double extent) {
        extent_ = std::max(extent, 1e-12);
        t0_ = 0;
        t1_ = extent_;
    }
    double extent() const { return extent_; }
    double start() const { return t0_; }
    double end() const { return t1_; }
    double width() const { return t1_ - t0_; }

    void set(double t0, double t1) {
        const double w = std::clamp(t1 - t0, min_width(), extent_);
        t0_ = std::clamp(t0, 0.0, extent_ - w);
        t1_ = t0_ + w;
    }
    /// factor < 1 zooms in; the time at `anchor` (0 = left edge, 1 = right edge) stays in place.
    void zoom(double factor, double anchor) {
        const double pivot = t0_ + anchor * width();
        const double w = std::clamp(width() * factor, min_width(), extent_);
        set(pivot - anchor * w, pivot - anchor * w + w);
    }
    /// Moves by a fraction of the window (positive: later).
    void pan(double fraction) { set(t0_ + fraction * width(), t1_ + fraction * width()); }

private:
    double min_width() const { return extent_ * 1e-6; }
    double extent_ = 1;
    double t0_ = 0;
    double t1_ = 1;
};

}  // namespace dtsim::gui
