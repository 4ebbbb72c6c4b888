#include "whatif_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <fstream>

#include "cli_runner.hpp"
#include "dtsim/scenario.hpp"
#include "hardware_choices.hpp"
#include "knob_widgets.hpp"
#include "llm_knobs_box.hpp"
#include "scenario_knobs.hpp"

namespace dtsim::gui {
namespace {

// Each all-reduce algorithm as "allreduce/ALGORITHM", then the parameter server (its sync mode is a knob)
// and FSDP (its sharding is a knob of the large-model layout).
QStringList strategy_choices() {
    QStringList out;
    const auto allreduce = text_of(kStrategyKindNames.name(StrategyKind::allreduce));
    for (const auto algorithm : kAllReduceAlgorithmNames.names()) out << allreduce + QLatin1Char('/') + text_of(algorithm);
    return out << text_of(kStrategyKindNames.name(StrategyKind::parameter_server)) << text_of(kStrategyKindNames.name(StrategyKind::fsdp));
}

QLineEdit* line_edit(const QString& text) { return new QLineEdit(text); }

const QString kNoProfile = QStringLiteral("none");  // the profile knob's choice that removes the scenario's

}  // namespace

WhatIfPanel::WhatIfPanel(const QString& dtsim_executable, QWidget* parent)
    : QWidget(parent), scenario_(new QLineEdit(this)), origin_(new QLabel(this)),
      nodes_(spin_box(1, 65536, 2)), sweep_(line_edit({})), gpn_(spin_box(1, 64, 8)), gpu_(new QComboBox), nic_(new QComboBox),
      nic_count_(spin_box(1, 64, 1)), bandwidth_(line_edit(QStringLiteral("200Gbps"))), model_(new QComboBox), profile_(new QComboBox),
      strategy_(combo_box(strategy_choices())), servers_(spin_box(1, 1024, 4)), sync_(combo_box(names_of(kSyncModeNames))),
      local_aggregation_(new QCheckBox),
      compression_(combo_box(names_of(kCompressionKindNames))), straggler_(new QDoubleSpinBox),
      bucket_(line_edit(QStringLiteral("25MB"))), llm_(new LlmKnobsBox(this)), runner_(new CliRunner(dtsim_executable, this)),
      log_(runner_->log()) {
    straggler_->setRange(1, 100);
    straggler_->setValue(2);
    sweep_->setPlaceholderText(tr("optional sweep, e.g. 1,2,4,8"));
    profile_->setEditable(true);  // a shipped profile's name, or a profile file's path
    origin_->setWordWrap(true);
    origin_->setObjectName(QStringLiteral("origin"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* file_row = new QHBoxLayout;
    file_row->addWidget(scenario_, 1);
    file_row->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Scenario file"), file_row);
    form->addRow(tr("Starts from"), origin_);
    nodes_on_ = add_knob(form, tr("Nodes"), nodes_, this, QStringLiteral("nodes"));
    form->addRow(tr("…or sweep nodes over"), sweep_);
    gpn_on_ = add_knob(form, tr("GPUs per node"), gpn_, this, QStringLiteral("gpus_per_node"));
    gpu_on_ = add_knob(form, tr("GPU"), gpu_, this, QStringLiteral("gpu"));
    nic_on_ = add_knob(form, tr("NIC kind"), nic_, this, QStringLiteral("nic"));
    nic_count_on_ = add_knob(form, tr("NICs per node"), nic_count_, this, QStringLiteral("nic_count"));
    bandwidth_on_ = add_knob(form, tr("NIC bandwidth"), bandwidth_, this, QStringLiteral("nic_bandwidth"));
    model_on_ = add_knob(form, tr("Model"), model_, this, QStringLiteral("model"));
    profile_on_ = add_knob(form, tr("Profile"), profile_, this, QStringLiteral("profile"));
    strategy_on_ = add_knob(form, tr("Strategy"), strategy_, this, QStringLiteral("strategy"));
    servers_on_ = add_knob(form, tr("Servers (parameter server)"), servers_, this, QStringLiteral("servers"));
    sync_on_ = add_knob(form, tr("Sync mode (parameter server)"), sync_, this, QStringLiteral("sync"));
    local_aggregation_on_ = add_knob(form, tr("Sum a node's GPUs before pushing (parameter server)"), local_aggregation_, this,
                                     QStringLiteral("local_aggregation"));
    compression_on_ = add_knob(form, tr("Compression"), compression_, this, QStringLiteral("compression"));
    straggler_on_ = add_knob(form, tr("Straggler: rank 0 slower by"), straggler_, this, QStringLiteral("straggler"));
    bucket_on_ = add_knob(form, tr("Bucket size"), bucket_, this, QStringLiteral("bucket"));
    add_choices();
    // The knobs scroll rather than squeeze: with the large-model ones they outgrow a small window.
    auto* knobs = new QWidget;
    auto* knobs_layout = new QVBoxLayout(knobs);
    knobs_layout->addLayout(form);
    knobs_layout->addWidget(llm_);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(knobs);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(scroll, 3);
    layout->addWidget(runner_);
    layout->addWidget(log_, 1);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Scenario"), scenario_->text(), tr("Scenarios (*.yaml *.yml)"));
        if (!file.isEmpty()) set_scenario_file(file);
    });
    connect(scenario_, &QLineEdit::editingFinished, this, [this] { set_scenario_file(scenario_->text()); });
    connect(runner_, &CliRunner::run_requested, this, &WhatIfPanel::run);
    connect(runner_, &CliRunner::finished, this, &WhatIfPanel::finished);
}

bool WhatIfPanel::is_running() const { return runner_->is_running(); }

void WhatIfPanel::add_choices() {
    try {
        gpu_->addItems(texts_of(gpu_choices()));
        nic_->addItems(texts_of(nic_choices()));
        model_->addItems(texts_of(model_choices()));
        profile_->addItems(QStringList{kNoProfile} + texts_of(profile_choices()));
    } catch (const std::exception& e) {
        log_->appendPlainText(tr("Cannot list the presets, models and profiles: %1").arg(QString::fromStdString(e.what())));
    }
}

void WhatIfPanel::set_scenario_file(const QString& path) {
    scenario_->setText(path);
    if (!path.startsWith(run_scenarios_.path())) origin_->setText(tr("this file"));
    try {
        show_values(scenario_knobs(load_scenario_file(path.toStdString())));
    } catch (const std::exception& e) {
        // dtsim says the same when the what-if runs; the knobs keep the values they showed.
        log_->appendPlainText(tr("The knobs cannot show this scenario's values: %1").arg(QString::fromStdString(e.what())));
    }
}

void WhatIfPanel::start_from_run(const RunListEntry& run) {
    const QString origin = tr("run %1 (%2), as stored").arg(run.id).arg(QString::fromStdString(run.scenario_name));
    if (run.scenario_text.empty()) {
        log_->appendPlainText(tr("Run %1 has no stored scenario: the what-if keeps %2").arg(run.id).arg(scenario_->text()));
        return;
    }
    const QString path = run_scenarios_.filePath(QStringLiteral("run-%1.yaml").arg(run.id));
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << run.scenario_text;
    if (!run_scenarios_.isValid() || !out.flush()) {
        log_->appendPlainText(tr("Cannot write run %1's scenario to %2").arg(run.id).arg(path));
        return;
    }
    origin_->setText(origin);
    set_scenario_file(path);
}

QString WhatIfPanel::scenario_file() const { return scenario_->text(); }

void WhatIfPanel::show_values(const WhatIfKnobs& v) {
    show_value(nodes_on_, nodes_, v.nodes);
    show_value(gpn_on_, gpn_, v.gpus_per_node);
    show_value(gpu_on_, gpu_, v.gpu);
    show_value(nic_on_, nic_, v.nic.preset);
    show_value(nic_count_on_, nic_count_, v.nic.count);
    show_value(bandwidth_on_, bandwidth_, v.nic.bandwidth);
    show_value(model_on_, model_, v.model);
    if (v.profile) show_value(profile_on_, profile_, v.profile->empty() ? kNoProfile.toStdString() : *v.profile);
    show_value(strategy_on_, strategy_, v.strategy);
    show_value(servers_on_, servers_, v.servers);
    show_value(sync_on_, sync_, v.sync);
    show_value(local_aggregation_on_, local_aggregation_, v.local_aggregation);
    show_value(compression_on_, compression_, v.compression);
    show_value(bucket_on_, bucket_, v.bucket);
    llm_->show_values(v.llm);
}

WhatIfKnobs WhatIfPanel::knobs() const {
    WhatIfKnobs k;
    auto number = [](const QSpinBox* box) { return box->value(); };
    auto text = [](const auto* editor) { return editor->text().trimmed().toStdString(); };
    auto choice = [](const QComboBox* box) { return box->currentText().toStdString(); };
    k.nodes = knob<int>(nodes_on_, nodes_, number);
    k.gpus_per_node = knob<int>(gpn_on_, gpn_, number);
    k.gpu = knob<std::string>(gpu_on_, gpu_, choice);
    k.nic.preset = knob<std::string>(nic_on_, nic_, choice);
    k.nic.count = knob<int>(nic_count_on_, nic_count_, number);
    k.nic.bandwidth = knob<std::string>(bandwidth_on_, bandwidth_, text);
    k.model = knob<std::string>(model_on_, model_, choice);
    k.profile = knob<std::string>(profile_on_, profile_, [](const QComboBox* box) {
        const QString profile = box->currentText().trimmed();
        return profile == kNoProfile ? std::string() : profile.toStdString();
    });
    k.strategy = knob<std::string>(strategy_on_, strategy_, choice);
    k.servers = knob<int>(servers_on_, servers_, number);
    k.sync = knob<std::string>(sync_on_, sync_, choice);
    k.local_aggregation = knob<bool>(local_aggregation_on_, local_aggregation_, [](const QCheckBox* box) { return box->isChecked(); });
    k.compression = knob<std::string>(compression_on_, compression_, choice);
    k.straggler_factor = knob<double>(straggler_on_, straggler_, [](const QDoubleSpinBox* b) { return b->value(); });
    k.bucket = knob<std::string>(bucket_on_, bucket_, text);
    k.llm = llm_->knobs();
    for (const auto& part : sweep_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (ok && n > 0) k.sweep_nodes.push_back(n);
    }
    return k;
}

void WhatIfPanel::run() {
    if (is_running()) return;
    if (database_.isEmpty() || scenario_->text().isEmpty()) {
        log_->appendPlainText(tr("Open a runs database and choose a scenario file first."));
        emit finished(false, tr("no database or scenario"));
        return;
    }
    QStringList args;
    for (const auto& a : whatif_arguments(knobs(), scenario_->text().toStdString(), database_.toStdString()))
        args << QString::fromStdString(a);
    runner_->start(args, static_cast<int>(knobs().sweep_nodes.size()));  // 0: busy indicator for a single simulation
}

void WhatIfPanel::cancel() { runner_->cancel(); }

}  // namespace dtsim::gui
