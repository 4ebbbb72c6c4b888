#include "cross_validation.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "dtsim/calibrate/environment.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/median.hpp"
#include "dtsim/sim/collective_replay.hpp"
#include "dtsim/units.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

constexpr double kLargeMessageBytes = 64 * 1024;  // the replay's accuracy target applies above 64 KB (docs/calibration.md)

struct Layout {
    int nodes = 1;
    int per_node = 1;
};

// The calibration's ranks must fill nodes in order, as the simulator's platform numbers them.
Layout read_layout(const std::string& environment_path) {
    const auto environment = calibrate::read_environment_file(environment_path);
    auto fail = [&](const char* key, const std::string& expected) {
        throw InputError(environment_path + ": key '" + key + "': " + expected);
    };
    if (environment.nodes == 0) fail("nodes", "is missing; expected the calibration's node count");
    if (environment.ranks == 0) fail("ranks", "is missing; expected the calibration's rank count");
    if (environment.ranks % environment.nodes != 0)
        fail("ranks", "must be a multiple of nodes for cross-validation (same ranks on every node)");
    const int per_node = environment.ranks / environment.nodes;
    for (size_t rank = 0; rank < environment.node_of_rank.size(); ++rank)
        if (environment.node_of_rank[rank] != static_cast<int>(rank) / per_node)
            fail("node_of_rank", "ranks must fill nodes in order (mpirun --map-by slot) for cross-validation");
    return {environment.nodes, per_node};
}

std::string scenario_text(const Layout& layout, const std::string& profile_path, bool has_inter_node_fit) {
    std::string text = "name: fit-validate\nprofile: \"" + std::filesystem::absolute(profile_path).string() +
                       "\"\ncluster:\n  nodes: " + std::to_string(layout.nodes) +
                       "\n  gpus_per_node: " + std::to_string(layout.per_node) + "\n  gpu: cpu\n  network_model: ideal\n";
    // One node never uses its NIC; any preset stands in when the profile has no inter-node fit.
    if (!has_inter_node_fit) text += "  nic: host-shm\n";
    text += "model: {gradient_bytes: 4B, forward_time: 0s, backward_time: 0s, layers: 1, batch_per_gpu: 1}\n"
            "training: {iterations: 1, strategy: {kind: allreduce}, fidelity: step}\n";
    return text;
}

// Latency-mode samples of each (op, ranks), or throughput-mode ones where a group has no latency samples.
std::vector<const calibrate::Sample*> samples_to_replay(const std::vector<calibrate::Sample>& samples) {
    std::set<std::pair<calibrate::CalibrationOp, int>> with_latency;
    for (const auto& s : samples)
        if (s.mode == TimingMode::latency) with_latency.insert({s.op, s.ranks});
    std::vector<const calibrate::Sample*> out;
    for (const auto& s : samples) {
        const auto* op = std::get_if<NetworkOp>(&s.op);
        if (!op || is_point_to_point(*op)) continue;
        const bool latency_group = with_latency.count({s.op, s.ranks}) > 0;
        if ((s.mode == TimingMode::latency) == latency_group) out.push_back(&s);
    }
    return out;
}


}  // namespace

std::vector<ValidationRow> cross_validate(const std::vector<calibrate::Sample>& samples, const std::string& environment_path,
                                          const std::string& profile_path, sim::SimulationProgress* progress) {
    const auto layout = read_layout(environment_path);
    const auto profile = load_profile_file(profile_path);
    const auto scenario = load_scenario_text(scenario_text(layout, profile_path, profile.link_cost(LinkClass::inter_node).has_value()),
                                             "cross-validation of " + profile_path);
    const auto chosen = samples_to_replay(samples);
    if (chosen.empty()) throw InputError(environment_path + ": the calibration has no collective samples to validate");
    std::vector<sim::CollectiveTrial> trials;
    for (const auto* s : chosen) trials.push_back({std::get<NetworkOp>(s->op), s->bytes, s->ranks});
    const auto predicted = sim::simulate_collectives(scenario, trials, progress);
    std::vector<ValidationRow> rows;
    for (size_t i = 0; i < chosen.size(); ++i)
        rows.push_back({std::get<NetworkOp>(chosen[i]->op), chosen[i]->ranks, chosen[i]->bytes, chosen[i]->time_s, predicted[i]});
    return rows;
}

void print_validation(std::ostream& out, const std::vector<ValidationRow>& rows) {
    TextTable table({"op", "ranks", "size", "measured", "predicted", "error"}, {false, true, true, true, true, true});
    for (const auto& row : rows)
        table.add_row({std::string(to_string(row.op)), std::to_string(row.ranks), format_bytes(row.bytes), format_seconds(row.measured_s),
                       format_seconds(row.predicted_s), percent(row.relative_error())});
    out << "predicted (from point-to-point fits only) vs measured, one operation at a time:\n";
    table.print(out, "  ");

    std::map<std::pair<std::string, int>, std::pair<std::vector<double>, std::vector<double>>> errors;  // all, large
    for (const auto& row : rows) {
        auto& entry = errors[{std::string(to_string(row.op)), row.ranks}];
        entry.first.push_back(std::fabs(row.relative_error()));
        if (row.bytes > kLargeMessageBytes) entry.second.push_back(std::fabs(row.relative_error()));
    }
    TextTable summary({"op", "ranks", "sizes", "median |err|", "max |err|", "> 64 KB: median", "> 64 KB: max"},
                      {false, true, true, true, true, true, true});
    for (const auto& [key, values] : errors) {
        const auto& [all, large] = values;
        summary.add_row({key.first, std::to_string(key.second), std::to_string(all.size()), percent(median(all)),
                         percent(*std::max_element(all.begin(), all.end())), large.empty() ? "-" : percent(median(large)),
                         large.empty() ? "-" : percent(*std::max_element(large.begin(), large.end()))});
    }
    out << "\nsummary:\n";
    summary.print(out, "  ");
}

nlohmann::ordered_json validation_json(const std::vector<ValidationRow>& rows) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& row : rows)
        out.push_back({{"op", std::string(to_string(row.op))},
                       {"ranks", row.ranks},
                       {"bytes", row.bytes},
                       {"measured_s", row.measured_s},
                       {"predicted_s", row.predicted_s},
                       {"relative_error", row.relative_error()}});
    return out;
}

}  // namespace dtsim::cli
