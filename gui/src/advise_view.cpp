#include "advise_view.hpp"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QChartView>
#include <QtCharts/QScatterSeries>
#include <algorithm>
#include <cmath>

#include "advise_chart.hpp"
#include "cli_runner.hpp"
#include "number_text.hpp"
#include "plan_table_model.hpp"
#include "series_legend.hpp"

namespace dtsim::gui {
namespace {

// The point of `candidates` nearest `at` on the chart.
size_t nearest(const AdviseResult& result, const std::vector<size_t>& candidates, const QPointF& at) {
    size_t best = candidates.front();
    double best_distance = INFINITY;
    for (size_t i : candidates) {
        const auto& p = result.points[i];
        const double distance = std::hypot(*p.cost_usd - at.x(), p.time_to_train_s / 3600 - at.y());
        if (distance < best_distance) best = i, best_distance = distance;
    }
    return best;
}

}  // namespace

AdviseView::AdviseView(const QString& dtsim_executable, QWidget* parent)
    : QWidget(parent), study_(new QLineEdit(this)), runner_(new CliRunner(dtsim_executable, this)), caption_(new QLabel(this)),
      legend_(new SeriesLegend(this)), chart_(new QChartView(this)), table_model_(new PlanTableModel(this)),
      proxy_(new QSortFilterProxyModel(this)), table_(new QTableView(this)) {
    study_->setPlaceholderText(tr("a study file, e.g. scenarios/advise-llama3-8b.yaml"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* open = new QPushButton(tr("Open results…"), this);
    open->setToolTip(tr("Show what an earlier dtsim advise --json wrote"));
    auto* study_row = new QHBoxLayout;
    study_row->addWidget(study_, 1);
    study_row->addWidget(browse);
    study_row->addWidget(open);
    auto* form = new QFormLayout;
    form->addRow(tr("Study file"), study_row);
    caption_->setObjectName(QStringLiteral("advise_caption"));
    caption_->setWordWrap(true);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    legend_->setObjectName(QStringLiteral("advise_legend"));
    chart_->setObjectName(QStringLiteral("advise_chart"));
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setMinimumSize(300, 220);
    proxy_->setSourceModel(table_model_);
    proxy_->setSortRole(PlanTableModel::kSortRole);
    table_->setObjectName(QStringLiteral("plan_table"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(PlanTableModel::time_to_train, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->setWordWrap(false);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(chart_);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    runner_->log()->setMaximumHeight(90);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(runner_);
    layout->addWidget(caption_);
    layout->addWidget(legend_);
    layout->addWidget(split, 1);
    layout->addWidget(runner_->log());

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Advise study"), study_->text(), tr("Studies (*.yaml *.yml)"));
        if (!file.isEmpty()) set_study_file(file);
    });
    connect(open, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("dtsim advise results"), {}, tr("JSON (*.json);;All files (*)"));
        if (!file.isEmpty()) load_results(file);
    });
    connect(runner_, &CliRunner::run_requested, this, &AdviseView::run);
    connect(runner_, &CliRunner::finished, this, &AdviseView::on_finished);
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        choose_point(static_cast<size_t>(proxy_->mapToSource(index).row()));
    });
    set_caption(tr("Choose a study and Run (its runs go into the open database), or open the results of an earlier dtsim advise --json."), false);
    show_result({});
}

void AdviseView::set_study_file(const QString& path) { study_->setText(path); }

bool AdviseView::is_running() const { return runner_->is_running(); }

QString AdviseView::caption() const { return caption_->text(); }

void AdviseView::set_caption(const QString& text, bool error) {
    caption_->setText(text);
    caption_->setStyleSheet(error ? QStringLiteral("color: #B00020") : QString());
}

void AdviseView::run() {
    if (is_running()) return;
    if (database_.isEmpty() || study_->text().trimmed().isEmpty()) {
        const QString message = tr("Open a runs database and choose a study file first.");
        runner_->log()->appendPlainText(message);
        set_caption(message, true);
        emit finished(false, tr("no database or study"));
        return;
    }
    runner_->start({QStringLiteral("advise"), study_->text().trimmed(), QStringLiteral("--json"), scratch_.filePath(QStringLiteral("advice.json")),
                    QStringLiteral("--db"), database_, QStringLiteral("--progress-lines")},
                   0);
    set_caption(tr("dtsim advise is running…"), false);
}

void AdviseView::cancel() { runner_->cancel(); }

void AdviseView::on_finished(bool ok, const QString& message) {
    // A failed advise may still have written its JSON; only a finished one's is this run's.
    if (!ok) set_caption(tr("dtsim advise failed: %1").arg(message), true);
    else load_results(scratch_.filePath(QStringLiteral("advice.json")));
    emit finished(ok, message);
}

QString AdviseView::load_results(const QString& path) {
    try {
        show_result(read_advise_json(path.toStdString()));
    } catch (const std::exception& e) {
        const QString message = tr("Cannot show these advise results: %1").arg(QString::fromStdString(e.what()));
        set_caption(message, true);
        runner_->log()->appendPlainText(message);
        return message;
    }
    return {};
}

void AdviseView::show_result(AdviseResult result) {
    auto chart = advise_chart(result);
    QChart* old = chart_->chart();
    chart_->setChart(chart.chart);
    delete old;
    series_ = chart.options;
    series_points_ = chart.points;
    frontier_ = chart.frontier;
    for (size_t option = 0; option < series_.size(); ++option) {
        connect(series_[option], &QScatterSeries::clicked, this,
                [this, option](const QPointF& at) { choose_point(nearest(table_model_->result(), series_points_[option], at)); });
        connect(series_[option], &QScatterSeries::hovered, this, [this, option](const QPointF& at, bool entered) {
            if (!entered) return QToolTip::hideText();
            const auto& r = table_model_->result();
            const auto& p = r.points[nearest(r, series_points_[option], at)];
            QToolTip::showText(QCursor::pos(), tr("%1: %2\n%3 h, $%4%5")
                                                   .arg(QString::fromStdString(r.options[p.option]), QString::fromStdString(p.configuration),
                                                        short_number(p.time_to_train_s / 3600), with_prefix(*p.cost_usd),
                                                        p.run_id ? tr("\nrun %1 (click to open its timeline)").arg(*p.run_id) : QString()));
        });
    }
    legend_->set_entries(result.options.empty() ? std::vector<LegendEntry>{} : advise_legend(result));
    const auto frontier = std::count_if(result.points.begin(), result.points.end(), [](const AdvisePoint& p) { return p.pareto; });
    QString text = tr("%1 options, %2 configurations, %3 on the Pareto frontier; click a point to open its run's timeline")
                       .arg(result.options.size())
                       .arg(result.points.size())
                       .arg(frontier);
    if (chart.unpriced > 0) text += tr("; %1 without a price are in the table only").arg(chart.unpriced);
    if (result.failed > 0) text += tr("; %1 failed to simulate").arg(result.failed);
    if (!result.options.empty()) set_caption(text, false);
    table_model_->set_result(std::move(result));
    table_->resizeColumnsToContents();
}

void AdviseView::choose_point(size_t point) {
    const auto& result = table_model_->result();
    if (point >= result.points.size()) return;
    const auto row = proxy_->mapFromSource(table_model_->index(static_cast<int>(point), 0));
    table_->selectionModel()->select(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    table_->scrollTo(row);
    const auto& p = result.points[point];
    if (p.run_id) emit run_chosen(*p.run_id);
    else set_caption(tr("%1 has no stored run: advise ran without --db").arg(QString::fromStdString(p.configuration)), true);
}

}  // namespace dtsim::gui
