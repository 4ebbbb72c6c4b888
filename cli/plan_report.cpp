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

void print_plan_table(std::ostream& out, const PlanOutcome& outcome, int top, std::optional<double> usd_per_gpu_hour) {
    if (outcome.simulated.empty()) return;
    std::vector<std::string> headers{"#", "configuration", "iteration", "estimate", "tokens/s", "MFU", "memory/GPU", "exposed tp", "cp", "ep", "pp", "dp"};
    if (usd_per_gpu_hour) headers.insert(headers.end(), {"$/iteration", "tokens/$"});
    std::vector<bool> right(headers.size(), true);
    right[1] = false;
    TextTable table(headers, right);
    int rank = 0;
    for (const auto& c : outcome.simulated) {
        if (rank >= top) break;
        std::vector<std::string> row{std::to_string(++rank), describe_plan(c.config)};
        if (!c.simulated) {
            row.insert(row.end(), {"failed", format_seconds(c.estimate.iteration_s()), "", "", format_bytes(c.memory_bytes), "", "", "", "", ""});
            if (usd_per_gpu_hour) row.insert(row.end(), {"", ""});
        } else {
            const auto& s = *c.simulated;
            row.insert(row.end(), {format_seconds(s.iteration_time_s), format_seconds(c.estimate.iteration_s()), fixed(s.tokens_per_s, 0),
                                   percent(s.model_flops_utilisation), format_bytes(s.memory_per_gpu_bytes), format_seconds(s.exposed_tp_s),
                                   format_seconds(s.exposed_cp_s), format_seconds(s.exposed_ep_s), format_seconds(s.exposed_pp_s),
                                   format_seconds(s.exposed_dp_s)});
            if (usd_per_gpu_hour) {
                const double usd = s.iteration_time_s / 3600 * outcome.gpus * *usd_per_gpu_hour;
                row.insert(row.end(), {"$" + fixed(usd, usd >= 1 ? 2 : 5), fixed(s.tokens_per_s * s.iteration_time_s / usd, 0)});
            }
        }
        table.add_row(row);
    }
    out << "\n";
    table.print(out, "  ");
}

}  // namespace dtsim::cli
