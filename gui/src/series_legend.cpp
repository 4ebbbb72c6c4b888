#include "series_legend.hpp"

#include <QFontMetrics>
#include <algorithm>

namespace dtsim::gui {
namespace {

const QString kGap = QStringLiteral("\u00a0\u00a0\u00a0\u00a0");

QString entry_html(const LegendEntry& e) {
    QString name = e.name.toHtmlEscaped();
    return QStringLiteral("<span style=\"color:%1\">%2</span>\u00a0%3").arg(e.colour.name(), e.mark, name.replace(QLatin1Char(' '), QChar(0xa0)));
}

}  // namespace

SeriesLegend::SeriesLegend(QWidget* parent) : QLabel(parent) {
    setTextFormat(Qt::RichText);
    // The layout gives the width; the height follows the lines that width takes.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
}

void SeriesLegend::set_entries(std::vector<LegendEntry> entries) {
    entries_ = std::move(entries);
    lines_.clear();
    lay_out();
}

void SeriesLegend::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    lay_out();
}

void SeriesLegend::lay_out() {
    const QFontMetrics metrics(font());
    const int available = std::max(1, contentsRect().width());
    std::vector<QStringList> lines;
    QStringList html_lines;
    int used = 0;
    for (const auto& e : entries_) {
        const int width = metrics.horizontalAdvance(e.mark + QChar(0xa0) + e.name);
        const int gap = metrics.horizontalAdvance(kGap);
        if (lines.empty() || used + gap + width > available) {
            lines.emplace_back();
            html_lines << QString();
            used = width;
        } else {
            html_lines.back() += kGap;
            used += gap + width;
        }
        lines.back() << e.name;
        html_lines.back() += entry_html(e);
    }
    if (!lines_.empty() && lines == lines_) return;  // unchanged: a new text would resize and lay out again
    lines_ = std::move(lines);
    setText(html_lines.join(QStringLiteral("<br>")));
}

}  // namespace dtsim::gui
