// The Advise view on what the real `dtsim advise --json --db` writes for tests/data/advise/tiny-study.yaml: one
// marker per configuration, the frontier as the CLI marked it, a sortable plan table, a point's run opened.
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtCharts/QScatterSeries>
#include <catch2/catch.hpp>
#include <fstream>

#include "advise_view.hpp"
#include "dtsim/temporary_directory.hpp"
#include "main_window.hpp"
#include "plan_table_model.hpp"
#include "run_list_model.hpp"

namespace advise_view_test {

using namespace dtsim;
using namespace dtsim::gui;

TEST_CASE("gui::AdviseView: advise runs into the open database, its points open their runs", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-advise");
    MainWindow window(QStringLiteral(DTSIM_EXECUTABLE));
    const QString db = QString::fromStdString(dir.file("runs.db"));
    auto* view = window.advise_view();
    QSignalSpy finished(view, &AdviseView::finished);

    SECTION("run, show, sort, click") {
        view->set_database(db);
        view->set_study_file(QStringLiteral(DTSIM_TEST_SOURCE_DIR "/tests/data/advise/tiny-study.yaml"));
        view->run();
        REQUIRE(finished.wait(120000));
        CAPTURE(finished.at(0).at(1).toString().toStdString(), view->caption().toStdString());
        REQUIRE(finished.at(0).at(0).toBool());
        REQUIRE(window.open_database(db));
        const auto& result = view->plan_table()->result();
        REQUIRE(result.options == std::vector<std::string>{"cheap", "dear"});
        REQUIRE(result.points.size() == 4);
        CHECK(view->option_series(0)->count() == 2);
        CHECK(view->option_series(1)->count() == 2);
        // Only cheap's fastest configuration is on the frontier (dear is the same cluster at twice the price).
        int frontier = 0;
        for (const auto& p : result.points) frontier += p.pareto ? 1 : 0;
        CHECK(frontier == 1);
        // A frontier of one point has no line: its ring marks it, where cheap's fastest marker is.
        REQUIRE(view->frontier_series()->count() == 1);
        CHECK(view->frontier_series()->at(0) == view->option_series(0)->at(0));
        CHECK(view->frontier_series()->isVisible());
        CHECK(view->caption().contains(QStringLiteral("4 configurations, 1 on the Pareto frontier")));

        // Sorted by cost, descending: the dearest first.
        view->table()->sortByColumn(PlanTableModel::cost, Qt::DescendingOrder);
        auto* proxy = view->plan_proxy();
        double previous = 1e300;
        for (int row = 0; row < proxy->rowCount(); ++row) {
            const double cost = proxy->data(proxy->index(row, PlanTableModel::cost), PlanTableModel::kSortRole).toDouble();
            CHECK(cost <= previous);
            previous = cost;
        }
        CHECK(proxy->data(proxy->index(0, PlanTableModel::option)).toString() == QStringLiteral("dear"));
        // Owning two H100s (an eighth of a DGX each): a lower bound, the ideal network's switch ports unpriced.
        CHECK(proxy->data(proxy->index(0, PlanTableModel::owned)).toString().startsWith(QStringLiteral("≥ $")));

        // A point asks for its own run, which the main window then shows.
        QSignalSpy chosen(view, &AdviseView::run_chosen);
        const size_t point = view->option_points(1).back();
        view->choose_point(point);
        REQUIRE(chosen.count() == 1);
        CHECK(chosen.at(0).at(0).toLongLong() == *result.points[point].run_id);
        CHECK(window.selected_run_ids() == std::vector<std::int64_t>{*result.points[point].run_id});
    }
    SECTION("bad results give a message, not a crash") {
        std::ofstream(dir.file("bad.json")) << "[{\"option\": \"a\", \"configurations\": [{\"configuration\": \"dp2\", \"run_id\": 1, \"tensor\": \"two\"}]}]";
        const QString message = view->load_results(QString::fromStdString(dir.file("bad.json")));
        CHECK(message.contains(QStringLiteral("option 1 ('a'), configuration 1: key 'tensor'")));
        CHECK(view->caption() == message);
        std::ofstream(dir.file("old.json")) << "[{\"option\": \"a\", \"gpus\": 2}]";
        CHECK(view->load_results(QString::fromStdString(dir.file("old.json"))).contains(QStringLiteral("run dtsim advise again")));
        std::ofstream(dir.file("text.json")) << "not json";
        CHECK(view->load_results(QString::fromStdString(dir.file("text.json"))).contains(QStringLiteral("not JSON")));
        CHECK(view->plan_table()->rowCount() == 0);
    }
}

}  // namespace advise_view_test
