#pragma once
// The what-if panel: pick a scenario file, turn on and edit the common knobs and a large-model layout's,
// and run it through the dtsim CLI as a child process (`simulate`, or `sweep` over node counts) writing
// to the open runs database; shows progress and can cancel.
#include <QProcess>
#include <QWidget>

#include "whatif_overrides.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace dtsim::gui {

class LlmKnobsBox;

class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    WhatIfPanel(const QString& dtsim_executable, QWidget* parent = nullptr);
    void set_database(const QString& path) { database_ = path; }
    void set_scenario_file(const QString& path);
    WhatIfKnobs knobs() const;
    bool is_running() const { return process_.state() != QProcess::NotRunning; }

    // The knobs' editors, for tests and for the main window's defaults.
    QCheckBox* nodes_enabled() const { return nodes_on_; }
    QSpinBox* nodes() const { return nodes_; }
    QLineEdit* sweep_nodes() const { return sweep_; }

public slots:
    void run();
    void cancel();

signals:
    /// ok: dtsim exited 0; message: its last error lines otherwise.
    void finished(bool ok, const QString& message);

private:
    void on_finished(int exit_code, QProcess::ExitStatus status);
    void on_output();

    QString executable_;
    QString database_;
    QProcess process_;
    QString errors_;
    bool cancelled_ = false;
    QLineEdit* scenario_;
    QCheckBox* nodes_on_;
    QSpinBox* nodes_;
    QLineEdit* sweep_;
    QCheckBox* gpn_on_;
    QSpinBox* gpn_;
    QCheckBox* nic_on_;
    QLineEdit* nic_;
    QCheckBox* strategy_on_;
    QComboBox* strategy_;
    QCheckBox* servers_on_;
    QSpinBox* servers_;
    QCheckBox* sync_on_;
    QComboBox* sync_;
    QCheckBox* compression_on_;
    QComboBox* compression_;
    QCheckBox* straggler_on_;
    QDoubleSpinBox* straggler_;
    QCheckBox* bucket_on_;
    QLineEdit* bucket_;
    LlmKnobsBox* llm_;
    QPushButton* run_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QPlainTextEdit* log_;
};

}  // namespace dtsim::gui
