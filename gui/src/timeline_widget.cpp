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
#include "time_axis.hpp"

namespace dtsim::gui {
namespace {

constexpr double kMaxRowHeight = 18;
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

void TimelineWidget::setStore(std::shared_ptr<const SpanStore> store, double extent) {
    m_store = std::move(store);
    m_range.setExtent(extent > 0 ? extent : (m_store ? m_store->endTime() : 1));
    m_selection.reset();
    relayout();
    rangeChanged();
}

void TimelineWidget::setVisibleRange(double t0, double t1) {
    if (t0 == m_range.start() && t1 == m_range.end()) return;
    m_range.set(t0, t1);
    rangeChanged();
}

void TimelineWidget::rangeChanged() {
    m_lanes_dirty = true;
    update();
    emit visibleRangeChanged(m_range.start(), m_range.end());
}

bool TimelineWidget::setLaneFilter(const QString& pattern) {
    if (!m_layout.setFilter(pattern)) return false;
    relayout();
    return true;
}

void TimelineWidget::toggleNode(int node) {
    m_layout.toggleNode(node);
    relayout();
}

void TimelineWidget::relayout() {
    m_rows = m_store ? m_layout.rows(*m_store) : std::vector<LaneRow>{};
    m_lanes_dirty = true;
    update();
}

QRect TimelineWidget::laneArea() const {
    return QRect(kLabelWidth, kAxisHeight, std::max(1, width() - kLabelWidth), std::max(1, height() - kAxisHeight));
}

double TimelineWidget::timeAtX(double x) const {
    return m_range.start() + (x - laneArea().left()) * m_range.width() / laneArea().width();
}

int TimelineWidget::xAtTime(double t) const {
    return laneArea().left() + static_cast<int>(std::lround((t - m_range.start()) / m_range.width() * laneArea().width()));
}

double TimelineWidget::rowHeight() const {
    if (m_rows.empty()) return kMaxRowHeight;
    return std::min(kMaxRowHeight, static_cast<double>(laneArea().height()) / static_cast<double>(m_rows.size()));
}

int TimelineWidget::rowAtY(int y) const {
    const int row = static_cast<int>(std::floor((y - laneArea().top()) / rowHeight()));
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? row : -1;
}

std::vector<LaneBand> TimelineWidget::bands() const {
    std::vector<LaneBand> bands;
    const double h = rowHeight();
    // Merged bands take a power of two of rows, so that they line up with the store's rank groups.
    const size_t merge = h >= kMinBandHeight ? 1 : std::bit_ceil(static_cast<size_t>(std::ceil(kMinBandHeight / h)));
    for (size_t first = 0; first < m_rows.size(); first += merge) {
        const size_t last = std::min(m_rows.size(), first + merge);
        LaneBand band;
        band.y0 = static_cast<int>(std::lround(static_cast<double>(first) * h));
        band.y1 = static_cast<int>(std::lround(static_cast<double>(last) * h)) - (h >= kSplitMinHeight ? 1 : 0);
        for (size_t r = first; r < last; ++r) band.rank_slots.insert(band.rank_slots.end(), m_rows[r].rank_slots.begin(), m_rows[r].rank_slots.end());
        band.split_by_kind = merge == 1 && !m_rows[first].collapsed_node && band.y1 - band.y0 >= kSplitMinHeight;
        bands.push_back(std::move(band));
    }
    return bands;
}

void TimelineWidget::renderLanes() {
    const QRect area = laneArea();
    if (m_lanes.size() != area.size()) m_lanes = QImage(area.size(), QImage::Format_RGB32);
    m_lanes.fill(QColor::fromRgb(0xFFFFFF));
    if (m_store) {
        const auto grid = m_store->grid(m_range.start(), m_range.end(), area.width());
        rasterLaneBands(*m_store, grid, bands(), reinterpret_cast<std::uint32_t*>(m_lanes.bits()),
                        static_cast<int>(m_lanes.bytesPerLine() / 4));
    }
    m_lanes_dirty = false;
}

void TimelineWidget::paintEvent(QPaintEvent*) {
    if (m_lanes_dirty) renderLanes();
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    painter.drawImage(laneArea().topLeft(), m_lanes);
    paintAxis(painter);
    paintLabels(painter);
    if (m_selection) {
        const QRect area = laneArea();
        const QRect shown(QPoint(xAtTime(m_selection->t0), area.top()), QPoint(xAtTime(m_selection->t1), area.bottom()));
        painter.fillRect(shown.intersected(area), QColor(0, 0, 0, 40));
    }
    if (m_drag == Drag::select) painter.drawRect(m_rubber.normalized());
}

void TimelineWidget::paintAxis(QPainter& painter) const {
    const QRect area = laneArea();
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawLine(area.left(), kAxisHeight - 1, area.right(), kAxisHeight - 1);
    for (const auto& tick : timeTicks(m_range.start(), m_range.end(), area.width(), 110)) {
        const int x = xAtTime(tick.time_s);
        painter.drawLine(x, kAxisHeight - 6, x, kAxisHeight - 1);
        painter.drawText(QRect(x + 3, 0, 110, kAxisHeight - 4), Qt::AlignLeft | Qt::AlignBottom,
                         QString::fromStdString(tick.label));
    }
}

void TimelineWidget::paintLabels(QPainter& painter) const {
    const double h = rowHeight();
    if (h < 10) {
        // Too thin for one label per row: name the first row of each node that has room.
        int last_y = -100;
        for (size_t r = 0; r < m_rows.size(); ++r) {
            const int y = laneArea().top() + static_cast<int>(static_cast<double>(r) * h);
            if (r > 0 && m_rows[r].node == m_rows[r - 1].node) continue;
            if (y - last_y < 14) continue;
            painter.drawText(QRect(4, y, kLabelWidth - 8, 14), Qt::AlignLeft | Qt::AlignTop, QStringLiteral("node %1").arg(m_rows[r].node));
            last_y = y;
        }
        return;
    }
    for (size_t r = 0; r < m_rows.size(); ++r) {
        const QRect cell(4, laneArea().top() + static_cast<int>(static_cast<double>(r) * h), kLabelWidth - 8, static_cast<int>(h));
        painter.drawText(cell, Qt::AlignLeft | Qt::AlignVCenter, m_rows[r].label);
    }
}

void TimelineWidget::resizeEvent(QResizeEvent*) { m_lanes_dirty = true; }

void TimelineWidget::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_W: m_range.zoom(kZoomStep, 0.5); break;
    case Qt::Key_S: m_range.zoom(1 / kZoomStep, 0.5); break;
    case Qt::Key_A: m_range.pan(-kPanStep); break;
    case Qt::Key_D: m_range.pan(kPanStep); break;
    case Qt::Key_Home: m_range.set(0, m_range.extent()); break;
    case Qt::Key_Escape:
        m_selection.reset();
        update();
        emit selectionChanged(QString());
        return;
    default: QWidget::keyPressEvent(event); return;
    }
    rangeChanged();
}

void TimelineWidget::wheelEvent(QWheelEvent* event) {
    if (!(event->modifiers() & Qt::ControlModifier)) {
        QWidget::wheelEvent(event);
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    const double anchor = std::clamp((event->position().x() - laneArea().left()) / laneArea().width(), 0.0, 1.0);
    m_range.zoom(std::pow(kZoomStep, notches), anchor);
    rangeChanged();
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (event->button() != Qt::LeftButton) return;
    if (pos.x() < kLabelWidth) {
        if (const int row = rowAtY(pos.y()); row >= 0) toggleNode(m_rows[static_cast<size_t>(row)].node);
        return;
    }
    m_press = pos;
    m_press_t0 = m_range.start();
    m_drag = event->modifiers() & Qt::ShiftModifier ? Drag::select : Drag::pan;
    m_rubber = QRect(pos, pos);
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::pan) {
        const double dt = (pos.x() - m_press.x()) * m_range.width() / laneArea().width();
        setVisibleRange(m_press_t0 - dt, m_press_t0 - dt + m_range.width());
    } else if (m_drag == Drag::select) {
        m_rubber = QRect(m_press, pos);
        update();
    }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent*) {
    if (m_drag == Drag::select) selectArea(m_rubber.normalized());
    m_drag = Drag::none;
    update();
}

void TimelineWidget::selectArea(const QRect& area) {
    if (!m_store) return;
    AreaSelection selection;
    selection.t0 = std::max(0.0, timeAtX(area.left()));
    selection.t1 = std::min(m_range.extent(), timeAtX(area.right() + 1));
    const int first = std::max(0, rowAtY(area.top()));
    int last = rowAtY(area.bottom());
    if (last < 0) last = static_cast<int>(m_rows.size()) - 1;
    for (int r = first; r <= last; ++r)
        selection.rank_slots.insert(selection.rank_slots.end(), m_rows[static_cast<size_t>(r)].rank_slots.begin(), m_rows[static_cast<size_t>(r)].rank_slots.end());
    selection.totals = m_store->totals(selection.rank_slots, selection.t0, selection.t1);
    m_selection = selection;
    update();
    emit selectionChanged(selection.summary());
}

QString TimelineWidget::tooltipAt(const QPoint& pos) const {
    const int row = rowAtY(pos.y());
    if (!m_store || row < 0 || pos.x() < laneArea().left()) return {};
    const auto& lane = m_rows[static_cast<size_t>(row)];
    if (lane.collapsed_node) return lane.label + QStringLiteral(" — click its label to expand");
    const double t = timeAtX(pos.x() + 0.5);
    std::vector<Lane> kinds{Lane::comm, Lane::wait, Lane::compute};
    const double h = rowHeight();
    if (h >= kSplitMinHeight) {
        // The strip under the cursor names the kind.
        const double within = (pos.y() - laneArea().top()) / h - row;
        kinds = {static_cast<Lane>(std::clamp(static_cast<int>(within * kKinds), 0, kKinds - 1))};
    }
    SpanInfo span;
    for (Lane kind : kinds) {
        if (!m_store->spanAt(lane.rank_slots.front(), kind, t, span)) continue;
        const QString where = span.kind == Lane::compute ? QStringLiteral("layer") : QStringLiteral("bucket");
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
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace dtsim::gui
