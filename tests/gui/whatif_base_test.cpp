#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "dtsim/data_paths.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "main_window.hpp"
#include "run_list_model.hpp"
#include "whatif_panel.hpp"

namespace whatif_base_test {

using namespace dtsim;
using namespace dtsim::gui;

namespace {

// Two small scenarios that differ in every hardware knob; both simulate in well under a second.
const char* const kA100Text = R"(name: a100-ps
cluster: {nodes: 2, gpus_per_node: 2, gpu: a100-sxm, nic: {preset: ib-hdr, count: 2}}
model: {zoo: resnet50, batch_per_gpu: 32}
training:
  iterations: 1
  fidelity: flow
  strategy: {kind: parameter-server, servers: 2, local_aggregation: true}
)";
const char* const kH100Text = R"(name: h100-ring
profile: dgx-h100.datasheet
cluster: {nodes: 3, gpus_per_node: 1, gpu: h100-sxm, nic: ib-ndr}
model: {zoo: bert_base, batch_per_gpu: 8}
training:
  iterations: 1
  fidelity: flow
  strategy: {kind: allreduce, algorithm: tree}
)";

QStringList items(const QComboBox* box) {
    QStringList out;
    for (int i = 0; i < box->count(); ++i) out << box->itemText(i);
    return out;
}

QStringList names(const std::vector<std::string>& list) {
    QStringList out;
    for (const auto& name : list) out << QString::fromStdString(name);
    return out;
}

template <typename Editor>
Editor* editor(const WhatIfPanel& panel, const char* name) {
    auto* found = panel.findChild<Editor*>(QString::fromLatin1(name));
    REQUIRE(found);
    return found;
}

QCheckBox* knob_on(const WhatIfPanel& panel, const char* name) { return editor<QCheckBox>(panel, (std::string(name) + " on").c_str()); }

QString choice(const WhatIfPanel& panel, const char* name) { return editor<QComboBox>(panel, name)->currentText(); }

}  // namespace

TEST_CASE("gui::WhatIfPanel: GPU, NIC, model and profile choices come from the data folder", "[gui]") {
    WhatIfPanel panel(QStringLiteral(DTSIM_EXECUTABLE));
    CHECK(items(editor<QComboBox>(panel, "gpu")) == names(list_data_names("hardware/gpu")));
    CHECK(items(editor<QComboBox>(panel, "model")) == names(list_data_names("models")));
    CHECK(items(editor<QComboBox>(panel, "profile")) == QStringList{"none"} + names(list_data_names("profiles", ".json")));
    // NICs: the network presets that are not a GPU's own NVLink, PCIe or shared-memory link.
    const auto nics = items(editor<QComboBox>(panel, "nic"));
    CHECK(nics.contains(QStringLiteral("ib-ndr")));
    CHECK(nics.contains(QStringLiteral("eth-100g")));
    for (const auto* gpu_link : {"nvlink4", "pcie-gen5", "host-shm"}) CHECK_FALSE(nics.contains(QString::fromLatin1(gpu_link)));
    CHECK(nics.size() + 3 < static_cast<qsizetype>(list_data_names("hardware/network").size()));
}

TEST_CASE("gui::whatif_overrides: GPU, NIC kind and count, model and profile become overrides the loader applies", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-hardware-knobs");
    {
        std::ofstream(dir.file("a100.yaml")) << kA100Text;
        std::ofstream(dir.file("h100.yaml")) << kH100Text;
    }
    WhatIfKnobs knobs;
    knobs.gpu = "h100-sxm";
    knobs.nic.preset = "ib-ndr";
    knobs.model = "bert_base";
    knobs.profile = "dgx-h100.datasheet";
    // A new NIC kind keeps the file's count; a mapping's count changes alone.
    auto overrides = whatif_overrides(knobs, dir.file("a100.yaml"));
    CHECK(overrides == std::vector<std::string>{"cluster.gpu=h100-sxm", "cluster.nic=ib-ndr", "model.zoo=bert_base",
                                                "profile=dgx-h100.datasheet"});
    auto scenario = load_scenario_file(dir.file("a100.yaml"), overrides);
    CHECK(scenario.cluster.gpu.name == "h100-sxm");
    CHECK(scenario.cluster.nic.preset == "ib-ndr");
    CHECK(scenario.cluster.nics_per_node == 2);
    CHECK(scenario.model.name == "bert_base");
    REQUIRE(scenario.profile);
    CHECK(std::filesystem::path(scenario.profile->file).stem() == "dgx-h100.datasheet");

    WhatIfKnobs count;
    count.nic.count = 1;
    CHECK(whatif_overrides(count, dir.file("a100.yaml")) == std::vector<std::string>{"cluster.nic.count=1"});
    CHECK(load_scenario_file(dir.file("a100.yaml"), whatif_overrides(count, dir.file("a100.yaml"))).cluster.nics_per_node == 1);
    // A preset name written alone becomes a mapping that keeps it.
    count.nic.count = 1;
    count.nic.bandwidth = "100Gbps";
    CHECK(whatif_overrides(count, dir.file("h100.yaml")) == std::vector<std::string>{"cluster.nic={preset: ib-ndr, count: 1, bandwidth: 100Gbps}"});

    // Through the panel: its profile choice "none" takes the scenario's profile away.
    WhatIfPanel panel(QStringLiteral(DTSIM_EXECUTABLE));
    panel.set_scenario_file(QString::fromStdString(dir.file("h100.yaml")));
    CHECK(choice(panel, "profile") == QStringLiteral("dgx-h100.datasheet"));
    knob_on(panel, "profile")->setChecked(true);
    editor<QComboBox>(panel, "profile")->setCurrentText(QStringLiteral("none"));
    knob_on(panel, "nic")->setChecked(true);
    editor<QComboBox>(panel, "nic")->setCurrentText(QStringLiteral("eth-100g"));
    knob_on(panel, "nic_count")->setChecked(true);
    overrides = whatif_overrides(panel.knobs(), dir.file("h100.yaml"));
    CHECK(overrides == std::vector<std::string>{"cluster.nic={preset: eth-100g, count: 1}", "profile=null"});
    scenario = load_scenario_file(dir.file("h100.yaml"), overrides);
    CHECK_FALSE(scenario.profile);
    CHECK(scenario.cluster.nic.preset == "eth-100g");

    // The direct form's times belong to the model it describes: a zoo model replaces them.
    WhatIfKnobs model;
    model.model = "resnet50";
    const std::string ring = DTSIM_TEST_SOURCE_DIR "/scenarios/closed-form-ring.yaml";
    overrides = whatif_overrides(model, ring);
    CHECK(overrides == std::vector<std::string>{"model={batch_per_gpu: 1, zoo: resnet50}"});
    CHECK(load_scenario_file(ring, overrides).model.name == "resnet50");
}

TEST_CASE("gui::WhatIfPanel: starts from the selected run's scenario and knobs that are off show its values", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-whatif-base");
    {
        RunStore store(dir.file("runs.db"));
        for (const char* text : {kA100Text, kH100Text}) {
            auto run = test::synthetic_run(1, 2, RunKind::predicted);
            run.scenario_text = text;
            store.append(run);
        }
    }
    MainWindow window(QStringLiteral(DTSIM_EXECUTABLE));
    REQUIRE(window.open_database(QString::fromStdString(dir.file("runs.db"))));
    auto* panel = window.whatif_panel();

    REQUIRE(window.select_runs(1));
    CHECK(panel->scenario_file().endsWith(QStringLiteral("run-1.yaml")));
    CHECK(load_scenario_file(panel->scenario_file().toStdString()).canonical_text == load_scenario_text(kA100Text, "a").canonical_text);
    CHECK(editor<QLabel>(*panel, "origin")->text().startsWith(QStringLiteral("run 1 ")));
    CHECK(panel->nodes()->value() == 2);
    CHECK(editor<QSpinBox>(*panel, "gpus_per_node")->value() == 2);
    CHECK(choice(*panel, "gpu") == QStringLiteral("a100-sxm"));
    CHECK(choice(*panel, "nic") == QStringLiteral("ib-hdr"));
    CHECK(editor<QSpinBox>(*panel, "nic_count")->value() == 2);
    CHECK(choice(*panel, "model") == QStringLiteral("resnet50"));
    CHECK(choice(*panel, "profile") == QStringLiteral("none"));
    CHECK(choice(*panel, "strategy") == QStringLiteral("parameter-server"));
    CHECK(editor<QSpinBox>(*panel, "servers")->value() == 2);
    CHECK(editor<QCheckBox>(*panel, "local_aggregation")->isChecked());

    // A knob the user turned on keeps the user's value; the others follow the newly selected run.
    knob_on(*panel, "nodes")->setChecked(true);
    panel->nodes()->setValue(2);
    REQUIRE(window.select_runs(2));
    CHECK(panel->scenario_file().endsWith(QStringLiteral("run-2.yaml")));
    CHECK(panel->nodes()->value() == 2);
    CHECK(editor<QSpinBox>(*panel, "gpus_per_node")->value() == 1);
    CHECK(choice(*panel, "gpu") == QStringLiteral("h100-sxm"));
    CHECK(choice(*panel, "nic") == QStringLiteral("ib-ndr"));
    CHECK(editor<QSpinBox>(*panel, "nic_count")->value() == 1);
    CHECK(choice(*panel, "model") == QStringLiteral("bert_base"));
    CHECK(choice(*panel, "profile") == QStringLiteral("dgx-h100.datasheet"));
    CHECK(choice(*panel, "strategy") == QStringLiteral("allreduce/tree"));

    // The what-if runs run 2's scenario with the knobs turned on, and stores it under run 2's name.
    knob_on(*panel, "model")->setChecked(true);
    editor<QComboBox>(*panel, "model")->setCurrentText(QStringLiteral("resnet50"));
    QSignalSpy finished(panel, &WhatIfPanel::finished);
    panel->run();
    REQUIRE(finished.wait(120000));
    CAPTURE(finished.at(0).at(1).toString().toStdString());
    REQUIRE(finished.at(0).at(0).toBool());
    const auto runs = RunStore(dir.file("runs.db")).list();
    REQUIRE(runs.size() == 3);
    CHECK(runs[2].scenario_name == "h100-ring");
    CHECK(runs[2].gpus == 2);
    const auto stored = load_scenario_text(runs[2].scenario_text, "run-3.yaml");
    CHECK(stored.model.name == "resnet50");
    CHECK(stored.cluster.gpu.name == "h100-sxm");
    REQUIRE(stored.profile);
    CHECK(std::filesystem::path(stored.profile->file).stem() == "dgx-h100.datasheet");
}

}  // namespace whatif_base_test
