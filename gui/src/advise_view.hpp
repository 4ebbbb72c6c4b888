#pragma once
// The Advise view: runs `dtsim advise STUDY --json --db` on a study file as a child process into the open
// runs database (progress, Cancel, the CLI's errors), or opens what an earlier advise wrote; then shows
// time-to-train against cost for every simulated configuration of every option with the Pareto frontier,
// and the plan table. Clicking a point (or double-clicking a row) asks for that configuration's run.
#include <QTemporaryDir>
#include <QWidget>
#include <cstdint>
#include <vector>

#include "advise_result.hpp"

class QChartView;
class QLabel;
class QLineEdit;
class QScatterSeries;
class QSortFilterProxyModel;
class QTableView;

namespace dtsim::gui {

class CliRunner;
class PlanTableModel;
class SeriesLegend;

class AdviseView : public QWidget {
    Q_OBJECT
public:
    explicit AdviseView(const QString& dtsim_executable, QWidget* parent = nullptr);
    void set_database(const QString& path) { database_ = path; }
    void set_study_file(const QString& path);
    /// Shows what `dtsim advise --json` wrote; on failure keeps what it showed, says why in the caption and
    /// returns the message (empty on success).
    QString load_results(const QString& path);
    /// The configuration behind a point: selects its row and asks for its run (run_chosen) if it has one.
    void choose_point(size_t point);
    bool is_running() const;

    QString caption() const;
    QChartView* chart_view() const { return chart_; }
    /// The option's markers on the chart, and the point of the result behind each.
    QScatterSeries* option_series(size_t option) const { return series_.at(option); }
    const std::vector<size_t>& option_points(size_t option) const { return series_points_.at(option); }
    /// The rings around the configurations on the Pareto frontier.
    QScatterSeries* frontier_series() const { return frontier_; }
    PlanTableModel* plan_table() const { return table_model_; }
    QSortFilterProxyModel* plan_proxy() const { return proxy_; }
    QTableView* table() const { return table_; }
    CliRunner* runner() const { return runner_; }

public slots:
    void run();
    void cancel();

signals:
    void run_chosen(std::int64_t run_id);
    /// The advise run ended (its runs, if any, are in the database).
    void finished(bool ok, const QString& message);

private:
    void show_result(AdviseResult result);
    void on_finished(bool ok, const QString& message);
    void set_caption(const QString& text, bool error);

    QString database_;
    QTemporaryDir scratch_;  // where the advise run writes its JSON
    QLineEdit* study_;
    CliRunner* runner_;
    QLabel* caption_;
    SeriesLegend* legend_;
    QChartView* chart_;
    PlanTableModel* table_model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    std::vector<QScatterSeries*> series_;
    std::vector<std::vector<size_t>> series_points_;
    QScatterSeries* frontier_ = nullptr;
};

}  // namespace dtsim::gui
