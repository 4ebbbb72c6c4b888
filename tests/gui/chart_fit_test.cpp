#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QTextDocumentFragment>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChartView>
#include <QtCharts/QLogValueAxis>
#include <catch2/catch.hpp>

#include "dtsim/run_store.hpp"
#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "main_window.hpp"
#include "run_list_model.hpp"
#include "series_legend.hpp"
#include "speedup_view.hpp"

namespace chart_fit_test {

using namespace dtsim;
using namespace dtsim::gui;

namespace {

const char* const kLongStrategy = "parameter-server/ssp(3) x16 colocated round-robin";

// One scaling series of `strategy` whose speedup falls below 1 (a cluster that only adds communication).
std::vector<RunListEntry> slowing_series(const std::string& strategy) {
    std::vector<RunListEntry> runs;
    const std::pair<int, double> points[] = {{1, 1.0}, {2, 0.5}, {4, 0.3}};
    for (const auto& [gpus, speedup] : points) {
        RunListEntry run;
        run.id = static_cast<std::int64_t>(runs.size()) + 1;
        run.scenario_name = "slowing";
        run.scenario_text = "name: slowing\ncluster: {nodes: " + std::to_string(gpus) + "}\n";
        run.strategy = strategy;
        run.gpus = gpus;
        run.summary.gpus = gpus;
        run.summary.speedup = speedup;
        run.summary.scaling_efficiency = speedup / gpus;
        run.summary.iteration_time_s = 0.01 / speedup;
        run.summary.compute_time_s = 0.01;
        runs.push_back(run);
    }
    return runs;
}

QString plain(const QString& rich) { return QTextDocumentFragment::fromHtml(rich).toPlainText().replace(QChar(0xA0), QLatin1Char(' ')); }

}  // namespace

TEST_CASE("gui::SpeedupView: a speedup below 1 is on the axis, and the legend names every series whole", "[gui]") {
    SpeedupView view;
    const auto runs = slowing_series(kLongStrategy);
    view.show_scenario(runs, runs[0]);
    view.resize(700, 500);
    view.show();
    QApplication::processEvents();

    auto* speedup = view.findChild<QChartView*>(QStringLiteral("speedup"));
    REQUIRE(speedup);
    const auto vertical = speedup->chart()->axes(Qt::Vertical);
    REQUIRE(vertical.size() == 1);
    auto* axis = qobject_cast<QLogValueAxis*>(vertical.first());
    REQUIRE(axis);
    CHECK(axis->min() < 0.3);
    CHECK(axis->max() > 4);

    auto* legend = view.findChild<SeriesLegend*>(QStringLiteral("series_legend"));
    REQUIRE(legend);
    QStringList names;
    for (const auto& line : legend->lines()) names += line;
    CHECK(names == QStringList{"ideal", QString::fromLatin1(kLongStrategy) + QStringLiteral(" (predicted)")});
    CHECK(plain(legend->text()).contains(QString::fromLatin1(kLongStrategy)));
}

TEST_CASE("gui::SeriesLegend: wraps between entries, never inside a name, and shows every line", "[gui]") {
    QWidget window;
    auto* legend = new SeriesLegend(&window);
    const QStringList names{"ideal", "allreduce/ring (predicted)", "parameter-server/sync x2 dedicated (predicted)",
                            "allreduce/ring (variant 2) (measured)"};
    std::vector<LegendEntry> entries;
    for (const auto& name : names) entries.push_back({QColor(Qt::blue), QStringLiteral("■"), name});
    legend->set_entries(entries);
    window.show();
    for (const int width : {2000, 400, 150}) {
        legend->resize(width, legend->sizeHint().height());
        QApplication::processEvents();
        const auto lines = legend->lines();
        const QStringList shown = plain(legend->text()).split(QLatin1Char('\n'));
        CAPTURE(width, plain(legend->text()).toStdString());
        REQUIRE(shown.size() == static_cast<qsizetype>(lines.size()));
        QStringList in_order;
        for (size_t i = 0; i < lines.size(); ++i) {
            in_order += lines[i];
            for (const auto& name : lines[i]) CHECK(shown[static_cast<qsizetype>(i)].contains(name));  // whole, on its line
            if (lines[i].size() > 1) CHECK(legend->fontMetrics().horizontalAdvance(shown[static_cast<qsizetype>(i)]) <= width);
        }
        CHECK(in_order == names);
        CHECK(lines.size() == (width == 2000 ? 1U : width == 400 ? 3U : 4U));
        CHECK(legend->sizeHint().height() >= static_cast<int>(lines.size()) * legend->fontMetrics().height());
    }
}

TEST_CASE("gui::SpeedupView: every axis title fits its axis at the README's screenshot size", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-axis-titles");
    test::write_test_database(dir.file("runs.db"));
    MainWindow window(QStringLiteral(DTSIM_EXECUTABLE));
    REQUIRE(window.open_database(QString::fromStdString(dir.file("runs.db"))));
    REQUIRE(window.select_runs(1));
    window.show_view(ViewKind::speedup);
    for (const QSize size : {QSize(1280, 720), QSize(1000, 600)}) {
        window.screenshot(size);
        for (const char* name : {"speedup", "efficiency", "breakdown"}) {
            auto* view = window.findChild<QChartView*>(QString::fromLatin1(name));
            REQUIRE(view);
            const QRectF plot = view->chart()->plotArea();
            for (auto* axis : view->chart()->axes()) {
                const int title = QFontMetrics(axis->titleFont()).horizontalAdvance(axis->titleText());
                CAPTURE(name, size.width(), axis->titleText().toStdString(), title, plot.width(), plot.height());
                CHECK(title <= (axis->orientation() == Qt::Vertical ? plot.height() : plot.width()));
            }
        }
    }
}

TEST_CASE("gui::MainWindow: the run browser shows its columns through the strategy whole and a tooltip of each cell's text", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-browser-columns");
    {
        RunStore store(dir.file("runs.db"));
        for (const char* strategy : {"allreduce/ring", "parameter-server/sync x2 dedicated"}) {
            auto run = test::synthetic_run(1, 2, RunKind::predicted);
            run.strategy = strategy;
            run.scenario_name = "resnet50-h100-ring";
            store.append(run);
        }
    }
    MainWindow window(QStringLiteral(DTSIM_EXECUTABLE));
    REQUIRE(window.open_database(QString::fromStdString(dir.file("runs.db"))));
    window.screenshot(QSize(1280, 720));
    auto* table = window.findChild<QTableView*>(QStringLiteral("run_browser"));
    REQUIRE(table);
    const auto* model = table->model();
    for (int column = 0; column < model->columnCount(); ++column) {
        CAPTURE(column);
        const QAbstractItemView* view = table;  // QTableView's override is protected, the base's public
        CHECK(table->horizontalHeader()->sectionSize(column) >= view->sizeHintForColumn(column));
        for (int row = 0; row < model->rowCount(); ++row) {
            const auto index = model->index(row, column);
            CHECK(model->data(index, Qt::ToolTipRole) == model->data(index, Qt::DisplayRole));
        }
    }
    CHECK(table->columnViewportPosition(RunListModel::strategy) + table->columnWidth(RunListModel::strategy) <=
          table->viewport()->width());
}

}  // namespace chart_fit_test
