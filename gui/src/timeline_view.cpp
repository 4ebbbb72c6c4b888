#include "timeline_view.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "dtsim/units.hpp"
#include "dtsim/utf8_text.hpp"
#include "kind_palette.hpp"
#include "llm_spans.hpp"
#include "timeline_widget.hpp"

namespace dtsim::gui {

namespace {

QWidget* make_legend(QWidget* parent, const std::vector<std::pair<std::uint32_t, QString>>& entries) {
    auto* legend = new QWidget(parent);
    auto* layout = new QHBoxLayout(legend);
    layout->setContentsMargins(0, 0, 0, 0);
    for (const auto& [rgb, name] : entries) {
        auto* swatch = new QLabel(legend);
        swatch->setFixedSize(14, 14);
        swatch->setStyleSheet(QStringLiteral("background:%1;").arg(QColor::fromRgb(rgb).name()));
        layout->addWidget(swatch);
        layout->addWidget(new QLabel(name, legend));
    }
    layout->addStretch();
    return legend;
}

}  // namespace

QWidget* make_kind_legend(QWidget* parent) {
    std::vector<std::pair<std::uint32_t, QString>> entries;
    for (size_t k = 0; k < kKindRgb.size(); ++k) entries.emplace_back(kKindRgb[k], QString::fromLatin1(kKindNames[k]));
    return make_legend(parent, entries);
}

QWidget* make_dimension_legend(QWidget* parent) {
    std::vector<std::pair<std::uint32_t, QString>> entries;
    for (const auto& [dimension, name] : kDimensionNames.entries)
        entries.emplace_back(kDimensionRgb[static_cast<size_t>(dimension)],
                             QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())).toUpper());
    entries.emplace_back(kBubbleRgb, QString::fromUtf8(kBubbleSpanName.data(), static_cast<qsizetype>(kBubbleSpanName.size())));
    auto* legend = make_legend(parent, entries);
    legend->setObjectName(QStringLiteral("dimension_legend"));
    legend->hide();
    return legend;
}

QString describe_run(const Run& run) {
    return QStringLiteral("run %1 — %2 (%3), %4, %5 GPUs, iteration %6")
        .arg(run.id)
        .arg(QString::fromStdString(printable_text(run.scenario_name)), QString::fromStdString(to_string(run.kind)),
             QString::fromStdString(printable_text(run.strategy)))
        .arg(run.summary.gpus)
        .arg(QString::fromStdString(format_seconds(run.summary.iteration_time_s)));
}

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), title_(new QLabel(this)), dimension_legend_(make_dimension_legend(this)), filter_(new QLineEdit(this)), timeline_(new TimelineWidget(this)),
      totals_(new QLabel(this)) {
    filter_->setPlaceholderText(tr("Lane filter (regular expression), e.g. gpu [0-7]$|server"));
    filter_->setClearButtonEnabled(true);
    totals_->setText(tr("Shift+drag selects an area · W/S or Ctrl+wheel zoom · A/D or drag pan · Home resets"));
    totals_->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(title_, 1);
    top->addWidget(make_kind_legend(this));
    top->addWidget(dimension_legend_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(filter_);
    layout->addWidget(timeline_, 1);
    layout->addWidget(totals_);
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        const bool valid = timeline_->set_lane_filter(text);
        filter_->setStyleSheet(valid ? QString() : QStringLiteral("color: #b00020;"));
    });
    connect(timeline_, &TimelineWidget::selection_changed, totals_, &QLabel::setText);
}

void TimelineView::show_run(std::shared_ptr<const LoadedRun> run) {
    run_ = std::move(run);
    title_->setText(run_ ? describe_run(run_->run) : tr("No run selected"));
    timeline_->set_store(run_ ? run_->store : nullptr, 0, run_ ? run_->pipeline_stages : std::vector<int>{});
    dimension_legend_->setVisible(run_ && !run_->pipeline_stages.empty());
}

}  // namespace dtsim::gui
