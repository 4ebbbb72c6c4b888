#pragma once
// The what-if panel's large-model knobs (docs/llm.md): tensor, pipeline, data, expert and context
// degrees, sequence parallelism, the pipeline schedule and its microbatches (or the global batch), ZeRO
// or FSDP sharding, and activation recomputation; choices come from the core's name tables.
#include <QGroupBox>

#include "llm_overrides.hpp"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QSpinBox;

namespace dtsim::gui {

class LlmKnobsBox : public QGroupBox {
    Q_OBJECT
public:
    explicit LlmKnobsBox(QWidget* parent = nullptr);
    LlmKnobs knobs() const;
    /// A base scenario's layout in the knobs that are off (knob_widgets.hpp, show_value).
    void show_values(const LlmKnobs& values);

private:
    struct Degree {
        QCheckBox* on;
        QSpinBox* value;
    };
    Degree degree(QFormLayout* form, const QString& label, const QString& name, int min, int value);

    Degree tensor_, pipeline_, data_, expert_, context_, virtual_stages_, microbatches_, global_batch_, zero_;
    QCheckBox* sequence_parallel_on_;
    QCheckBox* sequence_parallel_;
    QCheckBox* schedule_on_;
    QComboBox* schedule_;
    QCheckBox* fsdp_on_;
    QComboBox* fsdp_;
    QCheckBox* recompute_on_;
    QComboBox* recompute_;
};

}  // namespace dtsim::gui
