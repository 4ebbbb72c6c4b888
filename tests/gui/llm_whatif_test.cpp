#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <catch2/catch.hpp>

#include "dtsim/scenario.hpp"
#include "gui_fixtures.hpp"
#include "whatif_panel.hpp"

namespace llm_whatif_test {

using namespace dtsim;
using namespace dtsim::gui;

namespace {

// A scenario file is only read for a NIC bandwidth knob, which these tests leave off.
const std::string kNoFile = "unused.yaml";

Scenario load_with(const std::vector<std::string>& overrides) {
    return load_scenario_text(test::kLlmScenarioText, "llm-synthetic.yaml", overrides);
}

template <typename Editor>
Editor* turn_on(const WhatIfPanel& panel, const char* name) {
    auto* on = panel.findChild<QCheckBox*>(QString::fromLatin1(name) + QStringLiteral(" on"));
    auto* editor = panel.findChild<Editor*>(QString::fromLatin1(name));
    REQUIRE(on);
    REQUIRE(editor);
    on->setChecked(true);
    return editor;
}

}  // namespace

TEST_CASE("gui::WhatIfPanel: the large-model knobs become --set overrides the scenario loader applies", "[gui]") {
    WhatIfPanel panel(QStringLiteral(DTSIM_EXECUTABLE));
    CHECK(whatif_overrides(panel.knobs(), kNoFile).empty());  // nothing turned on: a plain what-if is unchanged

    turn_on<QSpinBox>(panel, "tensor")->setValue(4);
    turn_on<QSpinBox>(panel, "pipeline")->setValue(2);
    CHECK(turn_on<QSpinBox>(panel, "data")->text() == QStringLiteral("auto"));
    turn_on<QCheckBox>(panel, "sequence_parallel");
    turn_on<QComboBox>(panel, "schedule")->setCurrentText(QStringLiteral("interleaved-1f1b"));
    turn_on<QSpinBox>(panel, "virtual_stages")->setValue(2);
    turn_on<QSpinBox>(panel, "microbatches")->setValue(8);
    turn_on<QSpinBox>(panel, "zero")->setValue(1);
    turn_on<QComboBox>(panel, "recompute")->setCurrentText(QStringLiteral("full"));
    const auto overrides = whatif_overrides(panel.knobs(), kNoFile);
    CHECK(overrides == std::vector<std::string>{"training.parallelism.tensor=4", "training.parallelism.pipeline=2",
                                                "training.parallelism.data=auto", "training.parallelism.sequence_parallel=true",
                                                "training.pipeline.schedule=interleaved-1f1b", "training.pipeline.virtual_stages=2",
                                                "training.pipeline.microbatches=8", "training.zero=1", "training.recompute=full"});
    const auto scenario = load_with(overrides);
    REQUIRE(scenario.training.llm);
    const auto& llm = *scenario.training.llm;
    CHECK(llm.parallelism.tensor == 4);
    CHECK(llm.parallelism.pipeline == 2);
    CHECK(llm.parallelism.data == 1);
    CHECK(llm.parallelism.sequence_parallel);
    CHECK(llm.pipeline.schedule == PipelineSchedule::interleaved);
    CHECK(llm.pipeline.virtual_stages == 2);
    CHECK(scenario.training.accumulation_steps == 8);
    CHECK(llm.zero_stage == 1);
    CHECK(llm.recompute == Recompute::full);
}

TEST_CASE("gui::whatif_overrides: the other large-model knobs, and FSDP's sharding with or without the strategy knob", "[gui]") {
    WhatIfKnobs knobs;
    knobs.llm.expert = 2;
    knobs.llm.data = "2";
    knobs.llm.global_batch = 16;
    auto overrides = whatif_overrides(knobs, kNoFile);
    CHECK(overrides == std::vector<std::string>{"training.parallelism.data=2", "training.parallelism.expert=2", "training.global_batch=16"});
    // Experts need a mixture-of-experts model; a global batch replaces the scenario's microbatches.
    overrides.insert(overrides.begin(), {"model.zoo=mixtral-8x7b", "training.pipeline={schedule: 1f1b}"});
    const auto moe = load_with(overrides);
    REQUIRE(moe.training.llm);
    CHECK(moe.training.llm->parallelism.expert == 2);
    CHECK(moe.training.accumulation_steps == 8);  // 16 sequences / (1 per microbatch × data 2)

    WhatIfKnobs fsdp;
    fsdp.llm.fsdp_sharding = "grad-op";
    const auto sharding_only = whatif_overrides(fsdp, kNoFile);
    CHECK(sharding_only == std::vector<std::string>{"training.strategy.kind=fsdp", "training.strategy.sharding=grad-op"});
    const auto grad_op = load_with(sharding_only);
    REQUIRE(grad_op.training.llm);
    CHECK(grad_op.training.llm->fsdp);
    CHECK(grad_op.training.llm->fsdp_sharding == FsdpSharding::grad_op);
    CHECK(grad_op.training.llm->zero_stage == 2);

    fsdp.strategy = "fsdp";
    fsdp.llm.fsdp_sharding = "hybrid";
    fsdp.bucket = "50MB";
    const auto with_strategy = whatif_overrides(fsdp, kNoFile);
    CHECK(with_strategy == std::vector<std::string>{"training.strategy={kind: fsdp, sharding: hybrid, bucket: 50MB}"});
    CHECK(load_with(with_strategy).training.llm->fsdp_sharding == FsdpSharding::hybrid);

    fsdp.strategy = "allreduce/ring";  // another strategy: the sharding knob does not apply
    CHECK(whatif_overrides(fsdp, kNoFile) == std::vector<std::string>{"training.strategy={kind: allreduce, algorithm: ring, bucket: 50MB}"});
}

}  // namespace llm_whatif_test
