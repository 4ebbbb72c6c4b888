#include "timeline_widget.hpp"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <bit>
#include <cmath>

#include "dtsim/units.hpp"
#include "kind_palette.hpp"
#include "llm_overlay.hpp"
#include "time_axis.hpp"

namespace dtsim::gui {
namespace {

constexpr double kMaxRowHeight = 18;
constexpr double kMaxStageRowHeight = 30;  // strips tall enough for pass labels
constexpr double kMinBandHeight = 2;  // thinner rows are merged into bands this tall
constexpr int kSplitMinHeight = 6;    // a single rank this tall shows one strip per kind

QString seconds(double s) { return QString::fromStdString(format_seconds(s)); }

}  // namespace

QString AreaSelection::summary() const {
    QStringList parts;
    for (int k = 0; k < kKinds; ++k)
        parts << QStringLiteral("%1: %2 spans, %3")
                     .arg(QLatin1String(kKindNames[static_cast<size_t>(k)]))
                     .arg(totals.count[static_cast<size_t>(k)])
                     .arg(seconds(totals.seconds[static_cast<size_t>(k)]));
    return QStringLiteral("Selection %1 × %2 ranks — %3").arg(seconds(t1 - t0)).arg(rank_slots.size()).arg(parts.join(QStringLiteral(" · ")));
}

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(400, 120);
}

void TimelineWidget::set_store(std::shared_ptr<const SpanStore> store, double extent, std::vector<int> pipeline_stages) {
    store_ = std::move(store);
    layout_.set_stages(std::move(pipeline_stages));
    range_.set_extent(extent > 0 ? extent : (store_ ? store_->end_time() : 1));
    selection_.reset();
    relayout();
    range_changed();
}

void TimelineWidget::set_visible_range(double t0, double t1) {
    if (t0 == range_.start() && t1 == range_.end()) return;
    range_.set(t0, t1);
    range_changed();
}

void TimelineWidget::range_changed() {
    lanes_dirty_ = true;
    update();
    emit visible_range_changed(range_.start(), range_.end());
}

bool TimelineWidget::set_lane_filter(const QString& pattern) {
    if (!layout_.set_filter(pattern)) return false;
    relayout();
    return true;
}

void TimelineWidget::toggle_group(int group) {
    layout_.toggle_group(group);
    relayout();
}

void TimelineWidget::relayout() {
    rows_ = store_ ? layout_.rows(*store_) : std::vector<LaneRow>{};
    lanes_dirty_ = true;
    update();
}

QRect TimelineWidget::lane_area() const {
    return QRect(kLabelWidth, kAxisHeight, std::max(1, width() - kLabelWidth), std::max(1, height() - kAxisHeight));
}

double TimelineWidget::time_at_x(double x) const {
    return range_.start() + (x - lane_area().left()) * range_.width() / lane_area().width();
}

int TimelineWidget::x_at_time(double t) const {
    return lane_area().left() + static_cast<int>(std::lround((t - range_.start()) / range_.width() * lane_area().width()));
}

double TimelineWidget::row_height() const {
    const double max = layout_.by_stage() ? kMaxStageRowHeight : kMaxRowHeight;
    if (rows_.empty()) return max;
    return std::min(max, static_cast<double>(lane_area().height()) / static_cast<double>(rows_.size()));
}

int TimelineWidget::row_at_y(int y) const {
    const int row = static_cast<int>(std::floor((y - lane_area().top()) / row_height()));
    return row >= 0 && row < static_cast<int>(rows_.size()) ? row : -1;
}

std::vector<LaneBand> TimelineWidget::bands() const {
    std::vector<LaneBand> bands;
    const double h = row_height();
    // Merged bands take a power of two of rows, so that they line up with the store's rank groups.
    const size_t merge = h >= kMinBandHeight ? 1 : std::bit_ceil(static_cast<size_t>(std::ceil(kMinBandHeight / h)));
    for (size_t first = 0; first < rows_.size(); first += merge) {
        const size_t last = std::min(rows_.size(), first + merge);
        LaneBand band;
        band.y0 = static_cast<int>(std::lround(static_cast<double>(first) * h));
        band.y1 = static_cast<int>(std::lround(static_cast<double>(last) * h)) - (h >= kSplitMinHeight ? 1 : 0);
        for (size_t r = first; r < last; ++r) band.rank_slots.insert(band.rank_slots.end(), rows_[r].rank_slots.begin(), rows_[r].rank_slots.end());
        band.split_by_kind = merge == 1 && !rows_[first].collapsed_group && !rows_[first].header && band.y1 - band.y0 >= kSplitMinHeight;
        bands.push_back(std::move(band));
    }
    return bands;
}

void TimelineWidget::render_lanes() {
    const QRect area = lane_area();
    if (lanes_.size() != area.size()) lanes_ = QImage(area.size(), QImage::Format_RGB32);
    lanes_.fill(QColor::fromRgb(0xFFFFFF));
    if (store_) {
        const auto grid = store_->grid(range_.start(), range_.end(), area.width());
        const auto lane_bands = bands();
        raster_lane_bands(*store_, grid, lane_bands, reinterpret_cast<std::uint32_t*>(lanes_.bits()),
                        static_cast<int>(lanes_.bytesPerLine() / 4));
        if (layout_.by_stage()) paint_llm_marks(lanes_, *store_, grid, lane_bands);
    }
    lanes_dirty_ = false;
}

void TimelineWidget::paintEvent(QPaintEvent*) {
    if (lanes_dirty_) render_lanes();
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    painter.drawImage(lane_area().topLeft(), lanes_);
    paint_axis(painter);
    paint_labels(painter);
    if (selection_) {
        const QRect area = lane_area();
        const QRect shown(QPoint(x_at_time(selection_->t0), area.top()), QPoint(x_at_time(selection_->t1), area.bottom()));
        painter.fillRect(shown.intersected(area), QColor(0, 0, 0, 40));
    }
    if (drag_ == Drag::select) painter.drawRect(rubber_.normalized());
}

void TimelineWidget::paint_axis(QPainter& painter) const {
    const QRect area = lane_area();
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawLine(area.left(), kAxisHeight - 1, area.right(), kAxisHeight - 1);
    for (const auto& tick : time_ticks(range_.start(), range_.end(), area.width(), 110)) {
        const int x = x_at_time(tick.time_s);
        painter.drawLine(x, kAxisHeight - 6, x, kAxisHeight - 1);
        painter.drawText(QRect(x + 3, 0, 110, kAxisHeight - 4), Qt::AlignLeft | Qt::AlignBottom,
                         QString::fromStdString(tick.label));
    }
}

void TimelineWidget::paint_labels(QPainter& painter) const {
    const double h = row_height();
    const int text_height = painter.fontMetrics().height();
    if (h < text_height) {
        // Too thin for one label per row: name the first row of each group that has room.
        int last_y = -100;
        for (size_t r = 0; r < rows_.size(); ++r) {
            const int y = lane_area().top() + static_cast<int>(static_cast<double>(r) * h);
            if (r > 0 && rows_[r].group == rows_[r - 1].group) continue;
            if (y - last_y < text_height) continue;
            painter.drawText(QRect(4, y, kLabelWidth - 8, text_height), Qt::AlignLeft | Qt::AlignTop, layout_.group_name(rows_[r].group));
            last_y = y;
        }
        return;
    }
    const QFont plain = painter.font();
    QFont bold = plain;
    bold.setBold(true);
    for (size_t r = 0; r < rows_.size(); ++r) {
        const QRect cell(4, lane_area().top() + static_cast<int>(static_cast<double>(r) * h), kLabelWidth - 8, static_cast<int>(h));
        painter.setFont(rows_[r].header ? bold : plain);
        painter.drawText(cell, Qt::AlignLeft | Qt::AlignVCenter, rows_[r].label);
    }
    painter.setFont(plain);
}

void TimelineWidget::resizeEvent(QResizeEvent*) { lanes_dirty_ = true; }

void TimelineWidget::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_W: range_.zoom(kZoomStep, 0.5); break;
    case Qt::Key_S: range_.zoom(1 / kZoomStep, 0.5); break;
    case Qt::Key_A: range_.pan(-kPanStep); break;
    case Qt::Key_D: range_.pan(kPanStep); break;
    case Qt::Key_Home: range_.set(0, range_.extent()); break;
    case Qt::Key_Escape:
        selection_.reset();
        update();
        emit selection_changed(QString());
        return;
    default: QWidget::keyPressEvent(event); return;
    }
    range_changed();
}

void TimelineWidget::wheelEvent(QWheelEvent* event) {
    if (!(event->modifiers() & Qt::ControlModifier)) {
        QWidget::wheelEvent(event);
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    const double anchor = std::clamp((event->position().x() - lane_area().left()) / lane_area().width(), 0.0, 1.0);
    range_.zoom(std::pow(kZoomStep, notches), anchor);
    range_changed();
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (event->button() != Qt::LeftButton) return;
    if (pos.x() < kLabelWidth) {
        if (const int row = row_at_y(pos.y()); row >= 0) toggle_group(rows_[static_cast<size_t>(row)].group);
        return;
    }
    press_ = pos;
    press_t0_ = range_.start();
    drag_ = event->modifiers() & Qt::ShiftModifier ? Drag::select : Drag::pan;
    rubber_ = QRect(pos, pos);
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (drag_ == Drag::pan) {
        const double dt = (pos.x() - press_.x()) * range_.width() / lane_area().width();
        set_visible_range(press_t0_ - dt, press_t0_ - dt + range_.width());
    } else if (drag_ == Drag::select) {
        rubber_ = QRect(press_, pos);
        update();
    }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent*) {
    if (drag_ == Drag::select) select_area(rubber_.normalized());
    drag_ = Drag::none;
    update();
}

void TimelineWidget::select_area(const QRect& area) {
    if (!store_) return;
    AreaSelection selection;
    selection.t0 = std::max(0.0, time_at_x(area.left()));
    selection.t1 = std::min(range_.extent(), time_at_x(area.right() + 1));
    const int first = std::max(0, row_at_y(area.top()));
    int last = row_at_y(area.bottom());
    if (last < 0) last = static_cast<int>(rows_.size()) - 1;
    for (int r = first; r <= last; ++r)
        selection.rank_slots.insert(selection.rank_slots.end(), rows_[static_cast<size_t>(r)].rank_slots.begin(), rows_[static_cast<size_t>(r)].rank_slots.end());
    selection.totals = store_->totals(selection.rank_slots, selection.t0, selection.t1);
    selection_ = selection;
    update();
    emit selection_changed(selection.summary());
}

QString TimelineWidget::tooltip_at(const QPoint& pos) const {
    const int row = row_at_y(pos.y());
    if (!store_ || row < 0 || pos.x() < lane_area().left()) return {};
    const auto& lane = rows_[static_cast<size_t>(row)];
    if (lane.collapsed_group) return lane.label + QStringLiteral(" — click its label to expand");
    if (lane.header) return lane.label + QStringLiteral(" — click its label to collapse");
    const double t = time_at_x(pos.x() + 0.5);
    std::vector<Lane> kinds{Lane::comm, Lane::wait, Lane::compute};
    const double h = row_height();
    if (h >= kSplitMinHeight) {
        // The strip under the cursor names the kind.
        const double within = (pos.y() - lane_area().top()) / h - row;
        kinds = {static_cast<Lane>(std::clamp(static_cast<int>(within * kKinds), 0, kKinds - 1))};
    }
    SpanInfo span;
    for (Lane kind : kinds) {
        if (!store_->span_at(lane.rank_slots.front(), kind, t, span)) continue;
        // An LLM layout's passes are per microbatch (docs/llm.md, "Timelines").
        const QString where = span.kind != Lane::compute ? QStringLiteral("bucket")
                              : layout_.by_stage()       ? QStringLiteral("microbatch")
                                                         : QStringLiteral("layer");
        return QStringLiteral("%1 (%2) on %3\n%4 %5, iteration %6\nbytes: %7\nstart: %8\nduration: %9")
            .arg(QString::fromUtf8(span.name.data(), static_cast<qsizetype>(span.name.size())))
            .arg(QLatin1String(kKindNames[static_cast<size_t>(span.kind)]))
            .arg(lane.label)
            .arg(where)
            .arg(span.index)
            .arg(span.iteration)
            .arg(QString::fromStdString(format_bytes(span.bytes)))
            .arg(seconds(span.start_s))
            .arg(seconds(span.end_s - span.start_s));
    }
    return {};
}

bool TimelineWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = tooltip_at(help->pos());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace dtsim::gui
