#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <catch2/catch.hpp>

#include "dtsim/run_store.hpp"
#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "metric_error_model.hpp"
#include "run_list_model.hpp"
#include "scaling_series.hpp"

namespace models_test {

using namespace dtsim;
using namespace dtsim::gui;

namespace {

std::vector<RunListEntry> test_runs() {
    TemporaryDirectory dir("dtsim-gui-models");
    test::write_test_database(dir.file("runs.db"));
    return RunStore(dir.file("runs.db")).list();
}

}  // namespace

TEST_CASE("gui::RunListModel: passes the model tester, sorts numbers as numbers and filters", "[gui]") {
    RunListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxy_tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.setSourceModel(&model);
    proxy.setSortRole(RunListModel::kSortRole);
    proxy.setFilterKeyColumn(-1);
    model.set_runs(test_runs());
    REQUIRE(model.rowCount() == 5);
    CHECK(model.data(model.index(3, RunListModel::gpus)).toInt() == 8);
    CHECK(model.data(model.index(1, RunListModel::kind)).toString() == QStringLiteral("measured"));
    CHECK(model.data(model.index(4, RunListModel::strategy)).toString() == QStringLiteral("parameter-server/sync x2"));
    CHECK(model.headerData(RunListModel::iteration_time, Qt::Horizontal).toString() == QStringLiteral("iteration"));
    proxy.sort(RunListModel::iteration_time, Qt::DescendingOrder);
    CHECK(proxy.data(proxy.index(0, RunListModel::id)).toLongLong() == 5);  // the 1.5x slower run
    proxy.setFilterFixedString(QStringLiteral("measured"));
    REQUIRE(proxy.rowCount() == 1);
    CHECK(proxy.data(proxy.index(0, RunListModel::id)).toLongLong() == 2);
    CHECK(model.row_of_id(4) == 3);
    CHECK(model.row_of_id(99) == -1);
}

TEST_CASE("gui::MetricErrorModel: passes the model tester and shows dtsim compare's errors against the measurement", "[gui]") {
    MetricErrorModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto predicted = test::synthetic_run(2, 2, RunKind::predicted);
    const auto measured = test::synthetic_run(2, 2, RunKind::measured, 1.25);
    const auto comparison = compare_runs(predicted, measured);
    REQUIRE_FALSE(comparison.reference_is_first);  // the measured run is the reference
    model.set_comparison(comparison.metrics, QStringLiteral("B"), QStringLiteral("A"));
    REQUIRE(model.rowCount() == static_cast<int>(comparison.metrics.size()));
    // Every time of the prediction is 1/1.25 of the measurement's: 20 % short; shares are equal.
    for (const char* label : {"iteration time", "compute per iteration", "communication per iteration", "waiting per iteration",
                              "exposed communication"}) {
        const auto rows = model.match(model.index(0, MetricErrorModel::metric), Qt::DisplayRole, QString::fromLatin1(label));
        REQUIRE(rows.size() == 1);
        CHECK(model.data(model.index(rows[0].row(), MetricErrorModel::error)).toString() == QStringLiteral("-20.00 %"));
    }
    const auto share = model.match(model.index(0, MetricErrorModel::metric), Qt::DisplayRole, QStringLiteral("compute share"));
    REQUIRE(share.size() == 1);
    CHECK(model.data(model.index(share[0].row(), MetricErrorModel::error)).toString() == QStringLiteral("+0.00 %"));
    CHECK(model.data(model.index(share[0].row(), MetricErrorModel::reference)).toString() == QStringLiteral("62.5 %"));
    CHECK(model.headerData(MetricErrorModel::reference, Qt::Horizontal).toString() == QStringLiteral("B"));
    model.set_comparison({}, {}, {});
    CHECK(model.rowCount() == 0);
}

TEST_CASE("gui::scaling_series: runs differing only in cluster size form one series", "[gui]") {
    const auto series = scaling_series(test_runs(), "synthetic");
    REQUIRE(series.size() == 2);
    CHECK(series[0].label == "allreduce/ring");
    REQUIRE(series[0].predicted.size() == 3);
    CHECK(series[0].predicted[0].gpus == 2);
    CHECK(series[0].predicted[1].run_id == 1);
    CHECK(series[0].predicted[2].gpus == 8);
    REQUIRE(series[0].measured.size() == 1);
    CHECK(series[0].measured[0].run_id == 2);
    CHECK(series[1].label == "parameter-server/sync x2");
    CHECK(series[1].contains(5));
    CHECK_FALSE(series[1].contains(1));
    CHECK(scaling_series(test_runs(), "no such scenario").empty());
}

TEST_CASE("gui::RunListModel: an LLM run shows its MFU, tokens/s and memory per GPU against the GPU's", "[gui]") {
    RunListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    RunListEntry fits;
    fits.id = 1;
    fits.summary.model_flops_utilisation = 0.4123;
    fits.summary.tokens_per_s = 1.234e6;
    fits.summary.memory_per_gpu_bytes = 61.04e9;
    fits.summary.memory_capacity_bytes = 80e9;
    RunListEntry too_big = fits;
    too_big.id = 2;
    too_big.summary.tokens_per_s = 812.4e3;
    too_big.summary.memory_per_gpu_bytes = 93.14e9;
    too_big.summary.fits = false;
    RunListEntry plain;  // data parallel: none of these figures
    plain.id = 3;
    model.set_runs({fits, too_big, plain});
    const auto text = [&](int row, int column) { return model.data(model.index(row, column)).toString(); };
    CHECK(model.headerData(RunListModel::mfu, Qt::Horizontal).toString() == QStringLiteral("MFU"));
    CHECK(model.headerData(RunListModel::tokens_per_s, Qt::Horizontal).toString() == QStringLiteral("tokens/s"));
    CHECK(model.headerData(RunListModel::memory, Qt::Horizontal).toString() == QStringLiteral("memory/GPU"));
    CHECK(model.headerData(RunListModel::date, Qt::Horizontal).toString() == QStringLiteral("date"));
    CHECK(text(0, RunListModel::mfu) == QStringLiteral("41.2 %"));
    CHECK(text(0, RunListModel::tokens_per_s) == QStringLiteral("1.23 M"));
    CHECK(text(0, RunListModel::memory) == QStringLiteral("61/80 GB ✓"));
    CHECK(text(1, RunListModel::tokens_per_s) == QStringLiteral("812 k"));
    CHECK(text(1, RunListModel::memory) == QStringLiteral("93.1/80 GB ✗"));
    for (int column : {RunListModel::mfu, RunListModel::tokens_per_s, RunListModel::memory}) CHECK(text(2, column).isEmpty());
    CHECK(model.data(model.index(1, RunListModel::memory), RunListModel::kSortRole).toDouble() == 93.14e9);
}

TEST_CASE("gui::RunListModel: names show escaped, no control character reaches the table", "[gui]") {
    auto runs = test_runs();
    runs[0].scenario_name = "esc\x1b[31mred";
    runs[0].strategy = "ring\x07";
    RunListModel model;
    model.set_runs(runs);
    CHECK(model.data(model.index(0, RunListModel::scenario)).toString() == QStringLiteral("esc\\x1b[31mred"));
    CHECK(model.data(model.index(0, RunListModel::strategy)).toString() == QStringLiteral("ring\\x07"));
}

}  // namespace models_test
