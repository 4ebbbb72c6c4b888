#include "compare_view.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "metric_error_model.hpp"
#include "timeline_view.hpp"
#include "timeline_widget.hpp"

namespace dtsim::gui {

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), first_title_(new QLabel(this)), second_title_(new QLabel(this)),
      dimension_legend_(make_dimension_legend(this)), first_(new TimelineWidget(this)),
      second_(new TimelineWidget(this)), errors_(new MetricErrorModel(this)) {
    auto* table = new QTableView(this);
    table->setModel(errors_);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->verticalHeader()->hide();
    table->setMaximumHeight(190);
    auto* top = new QHBoxLayout;
    top->addWidget(first_title_, 1);
    top->addWidget(make_kind_legend(this));
    top->addWidget(dimension_legend_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(first_, 1);
    layout->addWidget(second_title_);
    layout->addWidget(second_, 1);
    layout->addWidget(table);
    auto* totals = new QLabel(tr("Shift+drag on either timeline selects an area and shows its totals here"), this);
    totals->setWordWrap(true);
    layout->addWidget(totals);
    for (auto* timeline : {first_, second_}) connect(timeline, &TimelineWidget::selection_changed, totals, &QLabel::setText);
    // One time axis: whichever timeline moves, the other follows.
    connect(first_, &TimelineWidget::visible_range_changed, second_, &TimelineWidget::set_visible_range);
    connect(second_, &TimelineWidget::visible_range_changed, first_, &TimelineWidget::set_visible_range);
}

void CompareView::show_runs(std::shared_ptr<const LoadedRun> first, std::shared_ptr<const LoadedRun> second) {
    runs_[0] = std::move(first);
    runs_[1] = std::move(second);
    if (!runs_[0] || !runs_[1]) {
        first_title_->setText(tr("Select two runs in the browser (Ctrl+click) to compare them"));
        second_title_->clear();
        dimension_legend_->hide();
        first_->set_store(nullptr);
        second_->set_store(nullptr);
        errors_->set_comparison({}, {}, {});
        return;
    }
    dimension_legend_->setVisible(!runs_[0]->pipeline_stages.empty() || !runs_[1]->pipeline_stages.empty());
    const auto& a = runs_[0]->run;
    const auto& b = runs_[1]->run;
    first_title_->setText(describe_run(a));
    second_title_->setText(describe_run(b));
    const double extent = std::max(runs_[0]->store->end_time(), runs_[1]->store->end_time());
    first_->set_store(runs_[0]->store, extent, runs_[0]->pipeline_stages);
    second_->set_store(runs_[1]->store, extent, runs_[1]->pipeline_stages);
    const auto comparison = compare_runs(a, b);
    const auto label = [](const Run& run, const char* role) {
        return QStringLiteral("%1: run %2 (%3)").arg(QLatin1String(role)).arg(run.id).arg(QString::fromStdString(to_string(run.kind)));
    };
    const Run& reference = comparison.reference_is_first ? a : b;
    const Run& other = comparison.reference_is_first ? b : a;
    errors_->set_comparison(comparison.metrics, label(reference, "reference"), label(other, "other"));
}

}  // namespace dtsim::gui
