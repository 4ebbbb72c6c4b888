#pragma once
// A run's timeline: one lane per rank (grouped by node, collapsible), custom-painted from the span store's
// coverage pyramids. W/S and Ctrl+wheel zoom, A/D and drag pan, Shift+drag selects an area and reports
// its totals per kind, hovering shows the span under the cursor.
#include <QImage>
#include <QWidget>
#include <memory>
#include <optional>

#include "lane_layout.hpp"
#include "lane_raster.hpp"
#include "span_store.hpp"
#include "visible_range.hpp"

namespace dtsim::gui {

struct AreaSelection {
    double t0 = 0;
    double t1 = 0;
    std::vector<int> rank_slots;
    KindTotals totals;
    QString summary() const;
};

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    static constexpr int kLabelWidth = 150;
    static constexpr int kAxisHeight = 24;
    static constexpr double kZoomStep = 0.8;  // W, and one Ctrl+wheel notch
    static constexpr double kPanStep = 0.1;   // A/D, as a fraction of the window

    explicit TimelineWidget(QWidget* parent = nullptr);

    /// `extent` is the time axis length; 0 takes the run's end (a compare view passes the longer run's).
    void setStore(std::shared_ptr<const SpanStore> store, double extent = 0);
    const SpanStore* store() const { return m_store.get(); }
    const VisibleRange& range() const { return m_range; }
    void setVisibleRange(double t0, double t1);
    bool setLaneFilter(const QString& pattern);
    void toggleNode(int node);
    const std::vector<LaneRow>& rows() const { return m_rows; }

    /// Selects the lanes and time under a rectangle in widget coordinates.
    void selectArea(const QRect& area);
    const std::optional<AreaSelection>& selection() const { return m_selection; }
    QString tooltipAt(const QPoint& pos) const;
    QRect laneArea() const;
    int xAtTime(double t) const;
    /// Forces the next paint to redraw the lanes (the benchmark's cold frame).
    void invalidateLanes() { m_lanes_dirty = true; }

signals:
    void visibleRangeChanged(double t0, double t1);
    void selectionChanged(const QString& summary);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    bool event(QEvent*) override;

private:
    double timeAtX(double x) const;
    double rowHeight() const;
    int rowAtY(int y) const;
    std::vector<LaneBand> bands() const;
    void relayout();
    void rangeChanged();
    void renderLanes();
    void paintAxis(class QPainter& painter) const;
    void paintLabels(QPainter& painter) const;

    std::shared_ptr<const SpanStore> m_store;
    VisibleRange m_range;
    LaneLayout m_layout;
    std::vector<LaneRow> m_rows;
    std::optional<AreaSelection> m_selection;
    QImage m_lanes;
    bool m_lanes_dirty = true;
    enum class Drag { none, pan, select } m_drag = Drag::none;
    QPoint m_press;
    double m_press_t0 = 0;
    QRect m_rubber;
};

}  // namespace dtsim::gui
