#include "run_report.hpp"

#include <cmath>

#include "dtsim/buckets.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/memory_model.hpp"
#include "dtsim/units.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

// "tp 1.20 ms · pp 310 µs": the dimensions whose communication was exposed; empty when none was.
std::string exposed_by_dimension(const RunSummary& s) {
    std::string text;
    for (const auto& [dimension, seconds] : {std::pair{Dimension::tp, s.exposed_tp_s}, std::pair{Dimension::cp, s.exposed_cp_s},
                                             std::pair{Dimension::pp, s.exposed_pp_s}, std::pair{Dimension::dp, s.exposed_dp_s},
                                             std::pair{Dimension::ep, s.exposed_ep_s}})
        if (seconds > 0) text += (text.empty() ? "" : " · ") + std::string(kDimensionNames.name(dimension)) + " " + format_seconds(seconds);
    return text;
}

// The communication and wait shares overlap compute and each other, so they do not add up; this line gives
// the shares of the iteration that do, or says why they cannot.
std::string shares_line(const RunSummary& s) {
    if (s.iteration_time_s <= 0) return "";
    const double compute = s.compute_time_s / s.iteration_time_s;
    if (compute > 1 + 1e-9)
        return "shares: compute per rank is longer than the job's iteration (workers do not step together), so "
               "shares of the iteration do not add up to 100 %";
    // Exposed communication is the iteration less compute: rounded once, the two printed shares sum to 100 %.
    const double rounded = std::round(compute * 1000) / 1000;
    return "shares of the iteration: compute " + percent(rounded) + " + exposed communication " + percent(1 - rounded) +
           " = 100 %; the communication and wait shares count time that overlaps compute, so they do not add to these";
}

}  // namespace

void print_run_summary_table(std::ostream& out, const RunSummary& s, const std::string& indent) {
    TextTable table({"metric", "value"}, {false, true});
    table.add_row({"iteration time", format_seconds(s.iteration_time_s)});
    if (s.uncertainty_draws > 0)
        table.add_row({"iteration time, 90 % interval", format_seconds(s.iteration_time_low_s) + " - " + format_seconds(s.iteration_time_high_s) +
                                                            " (" + std::to_string(s.uncertainty_draws) + " draws of the profile)"});
    table.add_row({"throughput", fixed(s.samples_per_s, 1) + " samples/s"});
    if (s.tokens_per_s > 0) table.add_row({"tokens", fixed(s.tokens_per_s, 0) + " tokens/s"});
    if (s.model_flops_utilisation > 0) {
        table.add_row({"MFU / HFU", percent(s.model_flops_utilisation) + " / " + percent(s.hardware_flops_utilisation)});
        table.add_row({"model FLOP/s per GPU", fixed(s.tflops_per_gpu, 1) + " TFLOP/s"});
    }
    table.add_row({"speedup vs 1 GPU", fixed(s.speedup, 2) + "×"});
    table.add_row({"scaling efficiency", percent(s.scaling_efficiency)});
    table.add_row({"compute per iteration", format_seconds(s.compute_time_s)});
    table.add_row({"communication per iteration", format_seconds(s.comm_time_s)});
    table.add_row({"exposed communication", format_seconds(s.exposed_comm_time_s)});
    table.add_row({"communication share", percent(s.comm_share)});
    table.add_row({"waiting per iteration", format_seconds(s.wait_time_s)});
    table.add_row({"wait share", percent(s.wait_share)});
    // Rows that only mean something for some strategies appear when they do.
    if (s.worker_samples_per_s_max > s.worker_samples_per_s_min * (1 + 1e-9))
        table.add_row({"worker throughput, slowest - fastest",
                       fixed(s.worker_samples_per_s_min, 1) + " - " + fixed(s.worker_samples_per_s_max, 1) + " samples/s"});
    if (s.staleness_max > 0)
        table.add_row({"staleness mean / p50 / p99 / max", fixed(s.staleness_mean, 2) + " / " + fixed(s.staleness_p50, 0) + " / " +
                                                              fixed(s.staleness_p99, 0) + " / " + fixed(s.staleness_max, 0)});
    if (s.staleness_clocks_max > 0)
        table.add_row({"staleness in clocks mean / max", fixed(s.staleness_clocks_mean, 2) + " / " + fixed(s.staleness_clocks_max, 0)});
    if (s.server_link_utilisation > 0) table.add_row({"server link utilisation", percent(s.server_link_utilisation)});
    if (s.lost_work_s > 0 || s.restart_s > 0)
        table.add_row({"lost to a node failure: work / restart", format_seconds(s.lost_work_s) + " / " + format_seconds(s.restart_s)});
    if (s.checkpoint_s > 0) table.add_row({"checkpoint writes, whole run", format_seconds(s.checkpoint_s)});
    if (s.bubble_fraction > 0) table.add_row({"pipeline bubble", percent(s.bubble_fraction)});
    if (const auto exposed = exposed_by_dimension(s); !exposed.empty()) table.add_row({"exposed communication by dimension", exposed});
    table.print(out, indent);
    if (const auto shares = shares_line(s); !shares.empty()) out << indent << shares << "\n";
    if (s.has_memory_estimate()) out << indent << "memory per GPU: " << describe_fit(s.memory_per_gpu_bytes, s.memory_capacity_bytes) << "\n";
}

void print_run_report(std::ostream& out, const Scenario& scenario, const Run& run) {
    const auto& c = scenario.cluster;
    const auto& strategy = scenario.training.strategy;
    const CostModel costs(scenario);
    const auto buckets = make_buckets(costs.layers(), strategy.bucket_bytes).buckets.size();
    out << "dtsim simulate: " << scenario.name << " (" << to_string(run.kind) << ")\n";
    out << "  cluster   " << c.nodes << " node(s) × " << c.gpus_per_node << " GPU(s) " << c.gpu.name << " = "
        << c.gpus() << " GPUs; " << (c.nics_per_node > 1 ? std::to_string(c.nics_per_node) + " × " : "") << "NIC "
        << format_bytes_per_second(costs.nic().effective_bytes_per_second()) << ", "
        << format_seconds(costs.nic().latency_s) << "; " << to_string(c.fabric.topology) << " fabric; "
        << to_string(c.network_model) << " network model\n";
    const int micro_batches = scenario.training.accumulation_steps;
    if (const auto& llm = scenario.training.llm) {
        out << "  model     " << scenario.model.name << ", " << format_bytes(costs.gradient_bytes()) << " of weights, "
            << to_string(scenario.model.precision) << "; batch " << scenario.global_batch() << " sequences of "
            << llm->sequence_length << " tokens: " << micro_batches << " microbatch(es) of " << scenario.model.batch_per_gpu
            << " per data-parallel replica\n";
    } else {
        out << "  model     " << scenario.model.name << ", batch " << scenario.model.batch_per_gpu << "/GPU"
            << (micro_batches > 1 ? " × " + std::to_string(micro_batches) + " accumulated micro-batches" : "") << ", "
            << to_string(scenario.model.precision) << ", " << format_bytes(costs.gradient_bytes())
            << " of gradients in " << buckets << " bucket(s)\n";
    }
    out << "  strategy  " << run.strategy << ", bucket " << format_bytes(strategy.bucket_bytes) << ", overlap "
        << (strategy.overlap ? "on" : "off") << ", " << to_string(scenario.training.fidelity) << " fidelity, "
        << scenario.training.iterations << " iteration(s)\n\n";
    print_run_summary_table(out, run.summary, "  ");
}

}  // namespace dtsim::cli
