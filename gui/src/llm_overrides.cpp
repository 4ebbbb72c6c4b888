#include "llm_overrides.hpp"

namespace dtsim::gui {
namespace {

std::string value_text(int value) { return std::to_string(value); }
std::string value_text(bool value) { return value ? "true" : "false"; }
std::string value_text(const std::string& value) { return value; }

}  // namespace

std::vector<std::string> llm_overrides(const LlmKnobs& k) {
    const auto text = [](const auto& value) { return value ? std::optional(value_text(*value)) : std::nullopt; };
    const std::pair<const char*, std::optional<std::string>> knobs[] = {
        {"training.parallelism.tensor", text(k.tensor)},         {"training.parallelism.pipeline", text(k.pipeline)},
        {"training.parallelism.data", text(k.data)},             {"training.parallelism.expert", text(k.expert)},
        {"training.parallelism.context", text(k.context)},       {"training.parallelism.sequence_parallel", text(k.sequence_parallel)},
        {"training.pipeline.schedule", text(k.schedule)},        {"training.pipeline.virtual_stages", text(k.virtual_stages)},
        {"training.pipeline.microbatches", text(k.microbatches)}, {"training.global_batch", text(k.global_batch)},
        {"training.zero", text(k.zero)},                         {"training.recompute", text(k.recompute)}};
    std::vector<std::string> out;
    for (const auto& [key, value] : knobs)
        if (value) out.push_back(std::string(key) + "=" + *value);
    return out;
}

}  // namespace dtsim::gui
