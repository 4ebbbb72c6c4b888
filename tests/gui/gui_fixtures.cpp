#include "gui_fixtures.hpp"

#include "dtsim/run_store.hpp"

namespace dtsim::gui::test {
namespace {

std::string scenario_text(int nodes, int gpus_per_node, const std::string& strategy) {
    return "name: synthetic\ncluster:\n  nodes: " + std::to_string(nodes) + "\n  gpus_per_node: " + std::to_string(gpus_per_node) +
           "\n  nic: ib-ndr\ntraining:\n  strategy: {kind: " + strategy + "}\n";
}

}  // namespace

Run synthetic_run(int nodes, int gpus_per_node, RunKind kind, double slowdown) {
    Run run;
    run.kind = kind;
    run.scenario_name = "synthetic";
    run.strategy = "allreduce/ring";
    run.scenario_text = scenario_text(nodes, gpus_per_node, "allreduce");
    const int gpus = nodes * gpus_per_node;
    const double iteration = 16 * kUnit * slowdown;
    run.summary.gpus = gpus;
    run.summary.nodes = nodes;
    run.summary.gpus_per_node = gpus_per_node;
    run.summary.iteration_time_s = iteration;
    run.summary.compute_time_s = 10 * kUnit * slowdown;
    run.summary.comm_time_s = 6 * kUnit * slowdown;
    run.summary.exposed_comm_time_s = 4 * kUnit * slowdown;
    run.summary.wait_time_s = 1 * kUnit * slowdown;
    run.summary.speedup = gpus * 0.9 / slowdown;
    run.summary.scaling_efficiency = 0.9 / slowdown;
    for (int r = 0; r < gpus; ++r) {
        run.ranks.push_back({r, r / gpus_per_node, "gpu " + std::to_string(r)});
        for (int it = 0; it < kIterations; ++it) {
            const double t = it * iteration;
            auto at = [&](double units) { return t + units * kUnit * slowdown; };
            run.spans.push_back({r, Lane::compute, "forward", it, 0, at(0), at(4), 0});
            run.spans.push_back({r, Lane::compute, "backward", it, 0, at(4), at(10), 0});
            run.spans.push_back({r, Lane::comm, "allreduce", it, 0, at(8), at(14), kBucketBytes});
            if (r % 2 == 1) run.spans.push_back({r, Lane::wait, "wait", it, 0, at(14), at(16), 0});
        }
    }
    for (int it = 0; it < kIterations; ++it) run.iterations.push_back({it, iteration});
    return run;
}

const char* const kLlmScenarioText = R"(name: llm-synthetic
cluster: {nodes: 2, gpus_per_node: 4, gpu: h100-sxm, nic: ib-ndr}
model: {zoo: llama2-7b, precision: bf16, micro_batch: 1, sequence_length: 4096}
training:
  parallelism: {tensor: 2, pipeline: 2, data: auto, order: pp-tp-cp-ep-dp}
  pipeline: {schedule: 1f1b, microbatches: 4}
  strategy: {kind: allreduce}
)";

Run llm_run() {
    Run run;
    run.scenario_name = "llm-synthetic";
    run.strategy = "allreduce/ring";
    run.scenario_text = kLlmScenarioText;
    run.summary.gpus = 8;
    run.summary.nodes = 2;
    run.summary.gpus_per_node = 4;
    run.summary.iteration_time_s = 32 * kUnit;
    const auto u = [](double units) { return units * kUnit; };
    for (int r = 0; r < 8; ++r) {
        const int stage = r % 2;
        run.ranks.push_back({r, r / 4, "gpu " + std::to_string(r)});
        for (int i = 0; i < 4; ++i) {
            const double forward = 2 * stage + 2 * i;
            run.spans.push_back({r, Lane::compute, "forward", 0, i, u(forward), u(forward + 2), 0});
            run.spans.push_back({r, Lane::comm, "tp allreduce", 0, i, u(forward + 1), u(forward + 2), 1e6});
            run.spans.push_back({r, Lane::compute, "backward", 0, i, u(12 + 4 * i), u(16 + 4 * i), 0});
            if (stage == 0) run.spans.push_back({r, Lane::comm, "pp send", 0, i, u(2 * i + 2), u(2 * i + 2.5), 1e6});
        }
        const double bubble = stage == 0 ? 10 : 0;
        run.spans.push_back({r, Lane::wait, "pipeline bubble", 0, 0, u(bubble), u(bubble + 2), 0});
        run.spans.push_back({r, Lane::comm, "dp allreduce", 0, 0, u(28), u(32), 1e8});
    }
    run.iterations.push_back({0, 32 * kUnit});
    return run;
}

void write_test_database(const std::string& path) {
    RunStore store(path);
    auto predicted = synthetic_run(2, 2, RunKind::predicted);
    auto measured = synthetic_run(2, 2, RunKind::measured, 1.25);
    auto small = synthetic_run(1, 2, RunKind::predicted);
    auto large = synthetic_run(4, 2, RunKind::predicted);
    auto other = synthetic_run(2, 2, RunKind::predicted, 1.5);
    other.strategy = "parameter-server/sync x2";
    other.scenario_text = scenario_text(2, 2, "parameter-server");
    for (Run* run : {&predicted, &measured, &small, &large, &other}) store.append(*run);
}

}  // namespace dtsim::gui::test
