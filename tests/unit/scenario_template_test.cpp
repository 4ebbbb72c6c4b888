// ScenarioTemplate: a scenario parsed once and loaded with overrides gives what loading the text with the
// same overrides gives: the scenario and its refusals' messages (with the file's line numbers).
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "dtsim/input_error.hpp"
#include "dtsim/scenario.hpp"
#include "test_support.hpp"

namespace scenario_template_test {

using namespace dtsim;

namespace {

const char* kText = R"(name: template
cluster: {nodes: 2, gpus_per_node: 8, gpu: h100-sxm, intra_node: nvlink4, nic: ib-ndr}
model: {zoo: llama2-7b, micro_batch: 1, precision: bf16}
training:
  iterations: 1
  global_batch: 32
  strategy: {kind: allreduce, bucket: 25MB}
)";

// What a load gives: the canonical text of the scenario and its hash, or the refusal's message.
std::string outcome(const std::function<Scenario()>& load) {
    try {
        const auto scenario = load();
        return scenario.canonical_text + scenario.hash;
    } catch (const InputError& e) {
        return std::string("refused: ") + e.what();
    }
}

}  // namespace

TEST_CASE("ScenarioTemplate loads as the text does: scenarios and refusals", "[unit][scenario]") {
    const ScenarioTemplate parsed(kText, "template.yaml");
    const std::vector<std::vector<std::string>> cases{
        {},
        {"training.parallelism={tensor: 2, pipeline: 2, data: auto, sequence_parallel: true}", "training.zero=1"},
        {"training.parallelism={tensor: 3}"},           // refused: heads not divisible
        {"cluster.nodes=3"},                            // refused at the file's global_batch line
    };
    int refused = 0;
    for (const auto& overrides : cases) {
        const auto expected = outcome([&] { return load_scenario_text(kText, "template.yaml", overrides, SweepValues::skip); });
        CAPTURE(expected);
        CHECK(outcome([&] { return parsed.load(overrides); }) == expected);
        refused += expected.rfind("refused: ", 0) == 0;
    }
    CHECK(refused == 2);
    CHECK(parsed.load({}).warnings.empty());  // the text's load warns: ZeRO-0 does not fit in memory
    CHECK_FALSE(load_scenario_text(kText, "template.yaml", {}, SweepValues::skip).warnings.empty());
}

}  // namespace scenario_template_test
