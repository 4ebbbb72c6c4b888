#include "plan_report.hpp"

#include "dtsim/units.hpp"
#include "text_table.hpp"

namespace dtsim::cli {

void print_plan_counts(std::ostream& out, const PlanRequest& request, const PlanOutcome& outcome) {
    out << "dtsim plan: " << request.scenario_file << " on " << outcome.gpus << " GPUs\n";
    out << "  " << outcome.enumerated << " configuration(s) enumerated, " << outcome.invalid << " refused by the scenario's checks\n";
    long long unfit = 0;
    for (const auto& [reason, count] : outcome.unfit) unfit += count;
    out << "  " << unfit << " do not fit in " << format_bytes(outcome.memory_capacity_bytes) << " per GPU";
    out << (unfit > 0 ? ":" : "") << "\n";
    for (const auto& [reason, count] : outcome.unfit) out << "    " << count << ": " << reason << "\n";
    out << "  " << outcome.feasible << " fit; " << outcome.pruned_by_margin << " pruned (estimate more than "
        << fixed(100 * request.margin, 0) << " % above the best), " << outcome.pruned_by_limit << " beyond the "
        << request.simulate_at_most << " best estimates\n";
    out << "  " << outcome.simulated.size() << " simulated\n";
}

void print_plan_table(std::ostream& out, const PlanOutcome& outcome, int top) {
    if (outcome.simulated.empty()) return;
    TextTable table({"#", "configuration", "iteration", "estimate", "tokens/s", "MFU", "memory/GPU", "exposed tp", "cp", "ep", "pp", "dp"},
                    {true, false, true, true, true, true, true, true, true, true, true, true});
    int rank = 0;
    for (const auto& c : outcome.simulated) {
        if (rank >= top) break;
        std::vector<std::string> row{std::to_string(++rank), describe_plan(c.config)};
        if (!c.simulated) {
            row.insert(row.end(), {"failed", format_seconds(c.estimate.iteration_s()), "", "", format_bytes(c.memory_bytes), "", "", "", "", ""});
        } else {
            const auto& s = *c.simulated;
            row.insert(row.end(), {format_seconds(s.iteration_time_s), format_seconds(c.estimate.iteration_s()), fixed(s.tokens_per_s, 0),
                                   percent(s.model_flops_utilisation), format_bytes(s.memory_per_gpu_bytes), format_seconds(s.exposed_tp_s),
                                   format_seconds(s.exposed_cp_s), format_seconds(s.exposed_ep_s), format_seconds(s.exposed_pp_s),
                                   format_seconds(s.exposed_dp_s)});
        }
        table.add_row(row);
    }
    out << "\n";
    table.print(out, "  ");
}

}  // namespace dtsim::cli
