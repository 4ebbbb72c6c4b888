#include "llm_overlay.hpp"

#include <QImage>
#include <QPainter>
#include <algorithm>

#include "llm_spans.hpp"

namespace dtsim::gui {
namespace {

constexpr int kMinLabelStripPx = 8;  // smaller text is not legible

}  // namespace

void paint_llm_marks(QImage& lanes, const SpanStore& store, const PixelGrid& grid, const std::vector<LaneBand>& bands) {
    QPainter painter(&lanes);
    painter.setPen(Qt::white);
    int font_strip = -1;
    int char_px = grid.width;  // no label fits until a strip is tall enough
    for (const auto& band : bands) {
        if (!band.split_by_kind) continue;
        const auto [label_top, label_bottom] = band.kind_strip(static_cast<int>(Lane::compute));
        if (const int strip = label_bottom - label_top; strip != font_strip) {
            font_strip = strip;
            QFont font = painter.font();
            font.setPixelSize(std::max(strip - 2, 1));
            painter.setFont(font);
            char_px = strip >= kMinLabelStripPx ? painter.fontMetrics().horizontalAdvance(QLatin1Char('B')) : grid.width;
        }
        for (const auto& mark : llm_span_marks(store, band.rank_slots.front(), grid.t0, grid.pixel_s, grid.width, char_px)) {
            const auto [top, bottom] = band.kind_strip(static_cast<int>(mark.kind));
            const QRect area(mark.x0, top, mark.x1 - mark.x0, bottom - top);
            painter.fillRect(area, QColor::fromRgb(mark.rgb));
            if (!mark.label.empty()) painter.drawText(area, Qt::AlignCenter, QString::fromStdString(mark.label));
        }
    }
}

}  // namespace dtsim::gui
