#include <QCheckBox>
#include <QProcess>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <catch2/catch.hpp>
#include <fstream>

#include "dtsim/run_store.hpp"
#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "main_window.hpp"
#include "run_list_model.hpp"
#include "whatif_panel.hpp"

namespace whatif_test {

using namespace dtsim;
using namespace dtsim::gui;

namespace {

const QString kRingScenario = QStringLiteral(DTSIM_TEST_SOURCE_DIR "/scenarios/closed-form-ring.yaml");

}  // namespace

TEST_CASE("gui::whatif_overrides: knobs become --set overrides, a preset NIC keeps its name", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-knobs");
    {
        std::ofstream(dir.file("preset.yaml")) << "cluster:\n  nodes: 2\n  nic: ib-ndr\n";
    }
    WhatIfKnobs knobs;
    CHECK(whatif_overrides(knobs, dir.file("preset.yaml")).empty());
    knobs.nic.bandwidth = "100Gbps";
    knobs.strategy = "parameter-server";
    knobs.servers = 4;
    knobs.sync = "async";
    knobs.local_aggregation = true;
    knobs.bucket = "10MB";
    knobs.straggler_factor = 2;
    CHECK(whatif_overrides(knobs, dir.file("preset.yaml")) ==
          std::vector<std::string>{"cluster.nic={preset: ib-ndr, bandwidth: 100Gbps}",
                                   "training.strategy={kind: parameter-server, servers: 4, sync: async, local_aggregation: true, bucket: 10MB}",
                                   "training.stragglers={slowdown: [{ranks: [0], factor: 2.000000}]}"});
    WhatIfKnobs ring;
    ring.strategy = "allreduce/tree";
    ring.servers = 4;  // ignored: not a parameter server
    ring.local_aggregation = true;  // ignored too
    ring.nic.bandwidth = "50Gbps";
    ring.sweep_nodes = {2, 4};
    ring.nodes = 8;  // the sweep decides the node count
    CHECK(whatif_arguments(ring, kRingScenario.toStdString(), "runs.db") ==
          std::vector<std::string>{"sweep", kRingScenario.toStdString(), "--db", "runs.db", "--vary", "cluster.nodes=2,4", "--progress-lines", "--set",
                                   "cluster.nic.bandwidth=50Gbps", "--set", "training.strategy={kind: allreduce, algorithm: tree}"});
}

TEST_CASE("gui::WhatIfPanel: a what-if runs through the real CLI and its run appears next to the previous one", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-whatif");
    test::write_test_database(dir.file("runs.db"));
    MainWindow window(QStringLiteral(DTSIM_EXECUTABLE));
    REQUIRE(window.open_database(QString::fromStdString(dir.file("runs.db"))));
    REQUIRE(window.select_runs(1));
    auto* panel = window.whatif_panel();
    panel->set_scenario_file(kRingScenario);
    panel->nodes_enabled()->setChecked(true);
    panel->nodes()->setValue(4);
    QSignalSpy finished(panel, &WhatIfPanel::finished);

    SECTION("run to the end") {
        panel->run();
        REQUIRE(finished.wait(120000));
        CAPTURE(finished.at(0).at(1).toString().toStdString());
        REQUIRE(finished.at(0).at(0).toBool());
        REQUIRE(window.run_list()->rowCount() == 6);
        const auto& added = window.run_list()->runs().back();
        CHECK(added.id == 6);
        CHECK(added.scenario_name == "closed-form-ring");
        CHECK(added.gpus == 4);
        CHECK(window.selected_run_ids() == std::vector<std::int64_t>{1, 6});
    }
    SECTION("cancel") {
        panel->sweep_nodes()->setText(QStringLiteral("2,4,8,16,32,64"));
        panel->run();
        REQUIRE(panel->is_running());
        panel->cancel();
        REQUIRE((finished.count() == 1 || finished.wait(30000)));
        CHECK_FALSE(finished.at(0).at(0).toBool());
        CHECK(finished.at(0).at(1).toString() == QStringLiteral("cancelled"));
    }
}

TEST_CASE("gui::whatif_arguments: every knob gives a command line the real CLI accepts", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-knobs-cli");
    WhatIfKnobs ring;
    ring.nodes = 4;
    ring.gpus_per_node = 2;
    ring.nic.bandwidth = "50Gbps";
    ring.strategy = "allreduce/tree";
    ring.bucket = "50MB";
    ring.compression = "int8";
    ring.straggler_factor = 2;
    WhatIfKnobs server;
    server.strategy = "parameter-server";
    server.servers = 2;
    server.sync = "async";
    server.local_aggregation = true;
    server.nodes = 2;
    for (const auto& knobs : {ring, server}) {
        QStringList args;
        for (const auto& a : whatif_arguments(knobs, kRingScenario.toStdString(), dir.file("runs.db"))) args << QString::fromStdString(a);
        QProcess dtsim;
        dtsim.start(QStringLiteral(DTSIM_EXECUTABLE), args);
        REQUIRE(dtsim.waitForFinished(120000));
        CAPTURE(args.join(QLatin1Char(' ')).toStdString(), dtsim.readAllStandardError().toStdString());
        CHECK(dtsim.exitCode() == 0);
    }
    const auto runs = RunStore(dir.file("runs.db")).list();
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].gpus == 8);
    CHECK(runs[0].strategy.find("tree") != std::string::npos);
    CHECK(runs[1].strategy.find("parameter-server") != std::string::npos);
}

}  // namespace whatif_test
