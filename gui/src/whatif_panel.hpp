#pragma once
// The what-if panel: start from the selected run's scenario (or a scenario file), turn on and edit the
// common knobs and a large-model layout's, and run it through the dtsim CLI as a child process
// (`simulate`, or `sweep` over node counts) writing to the open runs database; shows progress and can
// cancel. A knob that is off shows the base scenario's value and changes nothing.
#include <QTemporaryDir>
#include <QWidget>

#include "dtsim/run_store.hpp"
#include "whatif_overrides.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace dtsim::gui {

class CliRunner;
class LlmKnobsBox;

class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    WhatIfPanel(const QString& dtsim_executable, QWidget* parent = nullptr);
    void set_database(const QString& path) { database_ = path; }
    /// The base scenario: a file, whose values the knobs that are off then show.
    void set_scenario_file(const QString& path);
    /// The base scenario becomes the run's, as stored (its --set overrides applied).
    void start_from_run(const RunListEntry& run);
    QString scenario_file() const;
    WhatIfKnobs knobs() const;
    bool is_running() const;

    // The knobs' editors, for tests and for the main window's defaults. Every knob's check box and editor
    // are also named ("nodes on", "nodes"; gpu, nic, nic_count, model, profile, ...).
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
    void add_choices();
    void show_values(const WhatIfKnobs& values);

    QString database_;
    QTemporaryDir run_scenarios_;  // the selected runs' scenarios, written out for dtsim
    QLineEdit* scenario_;
    QLabel* origin_;
    QCheckBox* nodes_on_;
    QSpinBox* nodes_;
    QLineEdit* sweep_;
    QCheckBox* gpn_on_;
    QSpinBox* gpn_;
    QCheckBox* gpu_on_;
    QComboBox* gpu_;
    QCheckBox* nic_on_;
    QComboBox* nic_;
    QCheckBox* nic_count_on_;
    QSpinBox* nic_count_;
    QCheckBox* bandwidth_on_;
    QLineEdit* bandwidth_;
    QCheckBox* model_on_;
    QComboBox* model_;
    QCheckBox* profile_on_;
    QComboBox* profile_;
    QCheckBox* strategy_on_;
    QComboBox* strategy_;
    QCheckBox* servers_on_;
    QSpinBox* servers_;
    QCheckBox* sync_on_;
    QComboBox* sync_;
    QCheckBox* local_aggregation_on_;
    QCheckBox* local_aggregation_;
    QCheckBox* compression_on_;
    QComboBox* compression_;
    QCheckBox* straggler_on_;
    QDoubleSpinBox* straggler_;
    QCheckBox* bucket_on_;
    QLineEdit* bucket_;
    LlmKnobsBox* llm_;
    CliRunner* runner_;
    QPlainTextEdit* log_;
};

}  // namespace dtsim::gui
