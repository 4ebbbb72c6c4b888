#include "llm_knobs_box.hpp"

#include <QFormLayout>

#include "dtsim/parallelism.hpp"
#include "knob_widgets.hpp"

namespace dtsim::gui {
namespace {

constexpr int kMaxDegree = 1 << 20;
constexpr int kAutoData = 0;  // the data degree's spin box shows "auto" here

}  // namespace

LlmKnobsBox::Degree LlmKnobsBox::degree(QFormLayout* form, const QString& label, const QString& name, int min, int value) {
    auto* box = spin_box(min, kMaxDegree, value);
    return {add_knob(form, label, box, this, name), box};
}

LlmKnobsBox::LlmKnobsBox(QWidget* parent) : QGroupBox(tr("Large-model layout (docs/llm.md)"), parent) {
    auto* form = new QFormLayout(this);
    tensor_ = degree(form, tr("Tensor parallel"), QStringLiteral("tensor"), 1, 8);
    pipeline_ = degree(form, tr("Pipeline parallel"), QStringLiteral("pipeline"), 1, 4);
    data_ = degree(form, tr("Data parallel"), QStringLiteral("data"), kAutoData, kAutoData);
    data_.value->setSpecialValueText(QStringLiteral("auto"));
    expert_ = degree(form, tr("Expert parallel"), QStringLiteral("expert"), 1, 1);
    context_ = degree(form, tr("Context parallel"), QStringLiteral("context"), 1, 1);
    sequence_parallel_ = new QCheckBox(tr("on"));
    sequence_parallel_->setChecked(true);
    sequence_parallel_on_ = add_knob(form, tr("Sequence parallel"), sequence_parallel_, this, QStringLiteral("sequence_parallel"));
    schedule_ = combo_box(names_of(kPipelineScheduleNames));
    schedule_->setCurrentText(text_of(kPipelineScheduleNames.name(PipelineSchedule::one_f_one_b)));
    schedule_on_ = add_knob(form, tr("Pipeline schedule"), schedule_, this, QStringLiteral("schedule"));
    virtual_stages_ = degree(form, tr("Virtual stages (interleaved)"), QStringLiteral("virtual_stages"), 1, 2);
    microbatches_ = degree(form, tr("Microbatches"), QStringLiteral("microbatches"), 1, 16);
    global_batch_ = degree(form, tr("…or global batch (sequences)"), QStringLiteral("global_batch"), 1, 512);
    zero_ = degree(form, tr("ZeRO stage"), QStringLiteral("zero"), 0, 1);
    zero_.value->setMaximum(3);
    fsdp_ = combo_box(names_of(kFsdpShardingNames));
    fsdp_on_ = add_knob(form, tr("FSDP sharding"), fsdp_, this, QStringLiteral("fsdp_sharding"));
    recompute_ = combo_box(names_of(kRecomputeNames));
    recompute_->setCurrentText(text_of(kRecomputeNames.name(Recompute::selective)));
    recompute_on_ = add_knob(form, tr("Recomputation"), recompute_, this, QStringLiteral("recompute"));
}

LlmKnobs LlmKnobsBox::knobs() const {
    LlmKnobs k;
    const auto number = [](const Degree& d) { return knob<int>(d.on, d.value, [](const QSpinBox* box) { return box->value(); }); };
    const auto choice = [](const QCheckBox* on, const QComboBox* box) {
        return knob<std::string>(on, box, [](const QComboBox* b) { return b->currentText().toStdString(); });
    };
    k.tensor = number(tensor_);
    k.pipeline = number(pipeline_);
    k.data = knob<std::string>(data_.on, data_.value, [](const QSpinBox* box) {
        return box->value() == kAutoData ? std::string("auto") : std::to_string(box->value());
    });
    k.expert = number(expert_);
    k.context = number(context_);
    k.sequence_parallel = knob<bool>(sequence_parallel_on_, sequence_parallel_, [](const QCheckBox* box) { return box->isChecked(); });
    k.schedule = choice(schedule_on_, schedule_);
    k.virtual_stages = number(virtual_stages_);
    k.microbatches = number(microbatches_);
    k.global_batch = number(global_batch_);
    k.zero = number(zero_);
    k.fsdp_sharding = choice(fsdp_on_, fsdp_);
    k.recompute = choice(recompute_on_, recompute_);
    return k;
}

void LlmKnobsBox::show_values(const LlmKnobs& v) {
    show_value(tensor_.on, tensor_.value, v.tensor);
    show_value(pipeline_.on, pipeline_.value, v.pipeline);
    if (v.data) show_value(data_.on, data_.value, *v.data == "auto" ? kAutoData : std::stoi(*v.data));
    show_value(expert_.on, expert_.value, v.expert);
    show_value(context_.on, context_.value, v.context);
    show_value(sequence_parallel_on_, sequence_parallel_, v.sequence_parallel);
    show_value(schedule_on_, schedule_, v.schedule);
    show_value(virtual_stages_.on, virtual_stages_.value, v.virtual_stages);
    show_value(microbatches_.on, microbatches_.value, v.microbatches);
    show_value(zero_.on, zero_.value, v.zero);
    show_value(fsdp_on_, fsdp_, v.fsdp_sharding);
    show_value(recompute_on_, recompute_, v.recompute);
}

}  // namespace dtsim::gui
