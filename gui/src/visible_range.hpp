#pragma once
// The time window a timeline shows, inside [0, extent]: zoom around an anchor, pan by a fraction.
#include <algorithm>

namespace dtsim::gui {

class VisibleRange {
public:
    void setExtent(double extent) {
        m_extent = std::max(extent, 1e-12);
        m_t0 = 0;
        m_t1 = m_extent;
    }
    double extent() const { return m_extent; }
    double start() const { return m_t0; }
    double end() const { return m_t1; }
    double width() const { return m_t1 - m_t0; }

    void set(double t0, double t1) {
        const double w = std::clamp(t1 - t0, minWidth(), m_extent);
        m_t0 = std::clamp(t0, 0.0, m_extent - w);
        m_t1 = m_t0 + w;
    }
    /// factor < 1 zooms in; the time at `anchor` (0 = left edge, 1 = right edge) stays in place.
    void zoom(double factor, double anchor) {
        const double pivot = m_t0 + anchor * width();
        const double w = std::clamp(width() * factor, minWidth(), m_extent);
        set(pivot - anchor * w, pivot - anchor * w + w);
    }
    /// Moves by a fraction of the window (positive: later).
    void pan(double fraction) { set(m_t0 + fraction * width(), m_t1 + fraction * width()); }

private:
    double minWidth() const { return m_extent * 1e-6; }
    double m_extent = 1;
    double m_t0 = 0;
    double m_t1 = 1;
};

}  // namespace dtsim::gui
