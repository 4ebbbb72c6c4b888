#pragma once
// A run's timeline: one lane per rank (grouped by node, or by pipeline stage for an LLM layout;
// collapsible), custom-painted from the span store's coverage pyramids; an LLM layout's passes are
// labelled and its communication coloured by dimension. W/S and Ctrl+wheel zoom, A/D and drag pan, Shift+drag selects an area and reports
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
    /// `pipeline_stages` (per slot, pipeline_stages.hpp) groups the lanes by stage and marks LLM spans.
    void set_store(std::shared_ptr<const SpanStore> store, double extent = 0, std::vector<int> pipeline_stages = {});
    const SpanStore* store() const { return store_.get(); }
    const VisibleRange& range() const { return range_; }
    void set_visible_range(double t0, double t1);
    bool set_lane_filter(const QString& pattern);
    void toggle_group(int group);
    const std::vector<LaneRow>& rows() const { return rows_; }

    /// Selects the lanes and time under a rectangle in widget coordinates.
    void select_area(const QRect& area);
    const std::optional<AreaSelection>& selection() const { return selection_; }
    QString tooltip_at(const QPoint& pos) const;
    QRect lane_area() const;
    int x_at_time(double t) const;
    /// Forces the next paint to redraw the lanes (the benchmark's cold frame).
    void invalidate_lanes() { lanes_dirty_ = true; }

signals:
    void visible_range_changed(double t0, double t1);
    void selection_changed(const QString& summary);

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
    double time_at_x(double x) const;
    double row_height() const;
    int row_at_y(int y) const;
    std::vector<LaneBand> bands() const;
    void relayout();
    void range_changed();
    void render_lanes();
    void paint_axis(class QPainter& painter) const;
    void paint_labels(QPainter& painter) const;

    std::shared_ptr<const SpanStore> store_;
    VisibleRange range_;
    LaneLayout layout_;
    std::vector<LaneRow> rows_;
    std::optional<AreaSelection> selection_;
    QImage lanes_;
    bool lanes_dirty_ = true;
    enum class Drag { none, pan, select } drag_ = Drag::none;
    QPoint press_;
    double press_t0_ = 0;
    QRect rubber_;
};

}  // namespace dtsim::gui
