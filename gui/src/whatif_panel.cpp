#include "whatif_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <csignal>
#include <unistd.h>

namespace dtsim::gui {
namespace {

QSpinBox* spinBox(int min, int max, int value) {
    auto* box = new QSpinBox;
    box->setRange(min, max);
    box->setValue(value);
    return box;
}

QComboBox* comboBox(const QStringList& items) {
    auto* box = new QComboBox;
    box->addItems(items);
    return box;
}

QLineEdit* lineEdit(const QString& text) { return new QLineEdit(text); }

template <typename T, typename Editor, typename Read>
std::optional<T> knob(const QCheckBox* on, const Editor* editor, Read read) {
    return on->isChecked() ? std::optional<T>(read(editor)) : std::nullopt;
}

}  // namespace

WhatIfPanel::WhatIfPanel(const QString& dtsim_executable, QWidget* parent)
    : QWidget(parent), m_executable(dtsim_executable), m_scenario(new QLineEdit(this)), m_nodes(spinBox(1, 65536, 2)),
      m_sweep(lineEdit({})), m_gpn(spinBox(1, 64, 8)), m_nic(lineEdit(QStringLiteral("200Gbps"))),
      m_strategy(comboBox({"allreduce/ring", "allreduce/tree", "allreduce/halving-doubling", "allreduce/hierarchical",
                           "allreduce/direct", "parameter-server"})),
      m_servers(spinBox(1, 1024, 4)), m_sync(comboBox({"sync", "async", "ssp"})),
      m_compression(comboBox({"none", "fp16", "int8", "topk", "powersgd"})), m_straggler(new QDoubleSpinBox),
      m_bucket(lineEdit(QStringLiteral("25MB"))), m_run(new QPushButton(tr("Run"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_progress(new QProgressBar(this)), m_log(new QPlainTextEdit(this)) {
    m_straggler->setRange(1, 100);
    m_straggler->setValue(2);
    m_sweep->setPlaceholderText(tr("optional sweep, e.g. 1,2,4,8"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* file_row = new QHBoxLayout;
    file_row->addWidget(m_scenario, 1);
    file_row->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Scenario file"), file_row);
    m_nodes_on = addKnob(form, tr("Nodes"), m_nodes);
    form->addRow(tr("…or sweep nodes over"), m_sweep);
    m_gpn_on = addKnob(form, tr("GPUs per node"), m_gpn);
    m_nic_on = addKnob(form, tr("NIC bandwidth"), m_nic);
    m_strategy_on = addKnob(form, tr("Strategy"), m_strategy);
    m_servers_on = addKnob(form, tr("Servers (parameter server)"), m_servers);
    m_sync_on = addKnob(form, tr("Sync mode (parameter server)"), m_sync);
    m_compression_on = addKnob(form, tr("Compression"), m_compression);
    m_straggler_on = addKnob(form, tr("Straggler: rank 0 slower by"), m_straggler);
    m_bucket_on = addKnob(form, tr("Bucket size"), m_bucket);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(500);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_log, 1);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Scenario"), m_scenario->text(), tr("Scenarios (*.yaml *.yml)"));
        if (!file.isEmpty()) setScenarioFile(file);
    });
    // Its own process group, so that Cancel also stops the simulations a sweep starts as its children.
    m_process.setChildProcessModifier([] { ::setpgid(0, 0); });
    connect(m_run, &QPushButton::clicked, this, &WhatIfPanel::run);
    connect(m_cancel, &QPushButton::clicked, this, &WhatIfPanel::cancel);
    connect(&m_process, &QProcess::readyReadStandardError, this, &WhatIfPanel::onOutput);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &WhatIfPanel::onOutput);
    connect(&m_process, &QProcess::finished, this, &WhatIfPanel::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) onFinished(-1, QProcess::CrashExit);
    });
}

QCheckBox* WhatIfPanel::addKnob(QFormLayout* form, const QString& label, QWidget* editor) {
    auto* on = new QCheckBox(label, this);
    editor->setParent(this);
    editor->setEnabled(false);
    connect(on, &QCheckBox::toggled, editor, &QWidget::setEnabled);
    form->addRow(on, editor);
    return on;
}

void WhatIfPanel::setScenarioFile(const QString& path) { m_scenario->setText(path); }

WhatIfKnobs WhatIfPanel::knobs() const {
    WhatIfKnobs k;
    auto number = [](const QSpinBox* box) { return box->value(); };
    auto text = [](const auto* editor) { return editor->text().trimmed().toStdString(); };
    auto choice = [](const QComboBox* box) { return box->currentText().toStdString(); };
    k.nodes = knob<int>(m_nodes_on, m_nodes, number);
    k.gpus_per_node = knob<int>(m_gpn_on, m_gpn, number);
    k.nic_bandwidth = knob<std::string>(m_nic_on, m_nic, text);
    k.strategy = knob<std::string>(m_strategy_on, m_strategy, choice);
    k.servers = knob<int>(m_servers_on, m_servers, number);
    k.sync = knob<std::string>(m_sync_on, m_sync, choice);
    k.compression = knob<std::string>(m_compression_on, m_compression, choice);
    k.straggler_factor = knob<double>(m_straggler_on, m_straggler, [](const QDoubleSpinBox* b) { return b->value(); });
    k.bucket = knob<std::string>(m_bucket_on, m_bucket, text);
    for (const auto& part : m_sweep->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (ok && n > 0) k.sweep_nodes.push_back(n);
    }
    return k;
}

void WhatIfPanel::run() {
    if (isRunning()) return;
    if (m_database.isEmpty() || m_scenario->text().isEmpty()) {
        m_log->appendPlainText(tr("Open a runs database and choose a scenario file first."));
        emit finished(false, tr("no database or scenario"));
        return;
    }
    QStringList args;
    for (const auto& a : whatIfArguments(knobs(), m_scenario->text().toStdString(), m_database.toStdString()))
        args << QString::fromStdString(a);
    m_errors.clear();
    m_cancelled = false;
    m_log->appendPlainText(QStringLiteral("$ dtsim ") + args.join(QLatin1Char(' ')));
    const int points = static_cast<int>(knobs().sweep_nodes.size());
    m_progress->setRange(0, points);  // 0..0: busy indicator for a single simulation
    m_progress->setValue(0);
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_process.start(m_executable, args);
}

void WhatIfPanel::cancel() {
    if (!isRunning()) return;
    m_cancelled = true;
    if (const auto pid = static_cast<pid_t>(m_process.processId()); pid > 0) ::kill(-pid, SIGKILL);
    m_process.kill();
}

void WhatIfPanel::onOutput() {
    static const QRegularExpression progress(QStringLiteral(R"(\[(\d+)/(\d+)\])"));
    const QString text = QString::fromLocal8Bit(m_process.readAllStandardError() + m_process.readAllStandardOutput());
    for (const auto& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        m_log->appendPlainText(line);
        if (const auto match = progress.match(line); match.hasMatch()) {
            m_progress->setRange(0, match.captured(2).toInt());
            m_progress->setValue(match.captured(1).toInt());
        } else if (line.contains(QLatin1String("error"))) {
            m_errors += line + QLatin1Char('\n');
        }
    }
}

void WhatIfPanel::onFinished(int exit_code, QProcess::ExitStatus status) {
    onOutput();
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1);
    const bool ok = status == QProcess::NormalExit && exit_code == 0;
    m_progress->setValue(ok ? 1 : 0);
    QString message = ok ? tr("done") : m_cancelled ? tr("cancelled") : m_errors.trimmed();
    if (!ok && message.isEmpty())
        message = status == QProcess::CrashExit ? tr("dtsim did not finish (%1: %2)").arg(m_executable, m_process.errorString())
                                                : tr("dtsim exited with code %1").arg(exit_code);
    m_log->appendPlainText(message);
    emit finished(ok, message);
}

}  // namespace dtsim::gui
