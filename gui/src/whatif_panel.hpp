#pragma once
// The what-if panel: pick a scenario file, turn on and edit the common knobs, and run it through the
// dtsim CLI as a child process (`simulate`, or `sweep` over node counts) writing to the open runs
// database; shows progress and can cancel.
#include <QProcess>
#include <QWidget>

#include "whatif_overrides.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace dtsim::gui {

class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    WhatIfPanel(const QString& dtsim_executable, QWidget* parent = nullptr);
    void setDatabase(const QString& path) { m_database = path; }
    void setScenarioFile(const QString& path);
    WhatIfKnobs knobs() const;
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }

    // The knobs' editors, for tests and for the main window's defaults.
    QCheckBox* nodesEnabled() const { return m_nodes_on; }
    QSpinBox* nodes() const { return m_nodes; }
    QLineEdit* sweepNodes() const { return m_sweep; }

public slots:
    void run();
    void cancel();

signals:
    /// ok: dtsim exited 0; message: its last error lines otherwise.
    void finished(bool ok, const QString& message);

private:
    QCheckBox* addKnob(QFormLayout* form, const QString& label, QWidget* editor);
    void onFinished(int exit_code, QProcess::ExitStatus status);
    void onOutput();

    QString m_executable;
    QString m_database;
    QProcess m_process;
    QString m_errors;
    bool m_cancelled = false;
    QLineEdit* m_scenario;
    QCheckBox* m_nodes_on;
    QSpinBox* m_nodes;
    QLineEdit* m_sweep;
    QCheckBox* m_gpn_on;
    QSpinBox* m_gpn;
    QCheckBox* m_nic_on;
    QLineEdit* m_nic;
    QCheckBox* m_strategy_on;
    QComboBox* m_strategy;
    QCheckBox* m_servers_on;
    QSpinBox* m_servers;
    QCheckBox* m_sync_on;
    QComboBox* m_sync;
    QCheckBox* m_compression_on;
    QComboBox* m_compression;
    QCheckBox* m_straggler_on;
    QDoubleSpinBox* m_straggler;
    QCheckBox* m_bucket_on;
    QLineEdit* m_bucket;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QPlainTextEdit* m_log;
};

}  // namespace dtsim::gui
