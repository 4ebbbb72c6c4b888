#include "dtsim/simulation_footprint.hpp"

#include <unistd.h>

#include "dtsim/cost_model.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/simulation_events.hpp"
#include "dtsim/units.hpp"

namespace dtsim {
namespace {

// Rough lower bounds, from bench/results/sim-scale.md (flow fidelity, one iteration): 36 MB at 64 GPUs,
// 49 MB at 1024 and 92 MB at 4096, so about 14 KB more per GPU; 12 KiB is below every measured step.
// Where actors' stacks are touched (16 384 GPUs: 1021 MB) a GPU takes about four times that.
constexpr double kBaseBytes = 32e6;
constexpr double kBytesPerHost = 12 * 1024;
// A span is a few numbers and a short name (sizeof(Span) is 72 bytes); the vector holding them adds up to as much.
constexpr double kBytesPerSpan = 72;

// Ranks whose timeline is recorded: in an LLM layout's flow fidelity one per tensor group (docs/llm.md, "Scale").
double recorded_ranks(const Scenario& scenario) {
    const double gpus = scenario.cluster.gpus();
    const auto& llm = scenario.training.llm;
    return llm && scenario.training.fidelity == Fidelity::flow ? gpus / llm->parallelism.tensor : gpus;
}

}  // namespace

SimulationFootprint estimate_footprint(const Scenario& scenario) {
    SimulationFootprint footprint;
    const double servers = fabric_leaves(scenario) - scenario.cluster.nodes;
    footprint.hosts = scenario.cluster.gpus() + servers;
    const auto& training = scenario.training;
    footprint.spans = recorded_ranks(scenario) * training.iterations * training.accumulation_steps * 2.0;
    footprint.platform_bytes = kBaseBytes + kBytesPerHost * footprint.hosts;
    footprint.timeline_bytes = kBytesPerSpan * footprint.spans;
    return footprint;
}

std::string describe(const SimulationFootprint& footprint) {
    return "at least " + format_bytes(footprint.bytes()) + " (" + format_count(footprint.hosts) + " hosts, " +
           format_count(footprint.spans) + " timeline spans)";
}

std::optional<std::string> large_run_note(const Scenario& scenario) {
    const auto footprint = estimate_footprint(scenario);
    const auto events = estimate_events(scenario, CostModel(scenario));
    if (footprint.bytes() < kLargeFootprintBytes && events.messages < kLargeMessageCount) return std::nullopt;
    return "a large run: simulating it needs " + describe(footprint) + " of memory and sends about " +
           format_count(events.messages) + " messages (" + format_count(events.messages_per_iteration) + " per iteration)";
}

std::uint64_t physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0) return 0;
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

}  // namespace dtsim
