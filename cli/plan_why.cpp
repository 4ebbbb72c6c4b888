#include "plan_why.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "child_runs.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/plan_estimate.hpp"
#include "dtsim/run_json.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/temporary_directory.hpp"
#include "dtsim/units.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

// "ib-ndr 50 GB/s": the preset where one is named, and the line rate in use.
std::string link_name(const LinkSpec& link) {
    return (link.preset.empty() ? "" : link.preset + " ") + format_bytes_per_second(link.bytes_per_second);
}

std::string link_class(const Scenario& scenario, Dimension d) {
    const auto& cluster = scenario.cluster;
    if (!group_crosses_nodes(scenario, d)) return "intra-node (" + link_name(cluster.intra_node) + ")";
    std::string fabric = to_string(cluster.fabric.topology);
    if (cluster.fabric.oversubscription > 1) fabric += " " + fixed(cluster.fabric.oversubscription, 0) + ":1";
    return "NIC (" + link_name(cluster.nic) + ", " + fabric + ")";
}

std::string number(double value) {
    std::ostringstream out;
    out.precision(17);
    out << value;
    return out.str();
}

// A data folder that is the current one but for GPU preset `gpu`, whose peak rates and memory bandwidth
// are doubled: everything else is linked.
void link_data_with_faster_gpu(const std::filesystem::path& into, const std::string& gpu) {
    namespace fs = std::filesystem;
    const auto source = data_dir();
    const auto link_all_but = [](const fs::path& from, const fs::path& to, const std::string& except) {
        fs::create_directories(to);
        for (const auto& entry : fs::directory_iterator(from))
            if (entry.path().filename() != except) fs::create_directory_symlink(fs::absolute(entry.path()), to / entry.path().filename());
    };
    link_all_but(source, into, "hardware");
    link_all_but(source / "hardware", into / "hardware", "gpu");
    link_all_but(source / "hardware" / "gpu", into / "hardware" / "gpu", gpu + ".yaml");
    auto preset = YAML::LoadFile((source / "hardware" / "gpu" / (gpu + ".yaml")).string());
    for (auto entry : preset["peak"]) entry.second = number(2 * *parse_flops_per_second(entry.second.Scalar())) + "FLOPS";
    preset["memory_bandwidth"] = number(2 * *parse_bytes_per_second(preset["memory_bandwidth"].Scalar())) + "B/s";
    YAML::Emitter out;
    out << preset;
    std::ofstream(into / "hardware" / "gpu" / (gpu + ".yaml")) << out.c_str() << "\n";
}

// The child's iteration time, or why there is none (the first line of its error).
std::optional<double> iteration_of(const ChildResult& result, std::string& failure) {
    if (result.exit_code == 0) return summary_from_json(nlohmann::json::parse(result.output_json)).iteration_time_s;
    if (failure.empty()) failure = result.error_text.substr(0, result.error_text.find('\n'));
    return std::nullopt;
}

std::string change(double base, const std::optional<double>& changed) {
    if (!changed) return "failed";
    const double share = *changed / base - 1;
    return (share < 0 ? "−" : "+") + fixed(100 * std::abs(share), 1) + " %";
}

}  // namespace

PlanWhy explain_plan(const std::string& scenario_file, const PlanCandidate& best, int jobs) {
    const auto scenario = load_scenario_file(scenario_file, best.overrides, SweepValues::skip);
    const auto& s = *best.simulated;
    PlanWhy why;
    why.iteration_s = s.iteration_time_s;
    const double exposed[] = {s.exposed_tp_s, s.exposed_cp_s, s.exposed_ep_s, s.exposed_dp_s, s.exposed_pp_s};
    for (int d = 0; d < kDimensions; ++d) {
        why.exposed_share[static_cast<size_t>(d)] = exposed[d] / s.iteration_time_s;
        why.link[static_cast<size_t>(d)] = link_class(scenario, static_cast<Dimension>(d));
    }
    why.bubble_share = s.bubble_fraction;

    std::vector<std::string> args{"simulate", scenario_file, "--quiet", "--sweep-point"};
    for (const auto& o : best.overrides) args.insert(args.end(), {"--set", o});
    const auto& nic = scenario.cluster.nic;
    auto faster_nics = args;
    faster_nics.insert(faster_nics.end(), {"--set", "cluster.nic={count: " + std::to_string(scenario.cluster.nics_per_node) +
                                                        ", bandwidth: " + number(2 * nic.bytes_per_second) + "B/s, latency: " +
                                                        number(nic.latency_s * 1e6) + "us, efficiency: " + number(nic.efficiency) + "}"});
    why.faster_nics_s = iteration_of(run_children({faster_nics}, jobs, "--json", {}).front(), why.failure);

    const TemporaryDirectory data;
    link_data_with_faster_gpu(data.path() / "data", scenario.cluster.gpu.name);
    const char* before = std::getenv("DTSIM_DATA_DIR");
    const std::string restore = before ? before : "";
    setenv("DTSIM_DATA_DIR", (data.path() / "data").c_str(), 1);
    const auto faster_gpus = run_children({args}, jobs, "--json", {});
    if (before)
        setenv("DTSIM_DATA_DIR", restore.c_str(), 1);
    else
        unsetenv("DTSIM_DATA_DIR");
    why.faster_gpus_s = iteration_of(faster_gpus.front(), why.failure);
    return why;
}

std::string bottleneck_line(const PlanWhy& why) {
    double total = 0;
    for (double share : why.exposed_share) total += share;
    std::string text = "exposed communication " + percent(total) + " of the iteration";
    std::string parts;
    for (int d = 0; d < kDimensions; ++d) {
        const auto i = static_cast<size_t>(d);
        if (why.exposed_share[i] < 0.0005) continue;
        parts += (parts.empty() ? ": " : ", ") + std::string(kDimensionNames.name(static_cast<Dimension>(d))) + " " +
                 percent(why.exposed_share[i]) + " over " + why.link[i];
    }
    return text + parts + "; pipeline bubble " + percent(why.bubble_share);
}

std::string sensitivity_line(const PlanWhy& why) {
    return "2× NIC bandwidth: " + change(why.iteration_s, why.faster_nics_s) + ", 2× GPU speed: " + change(why.iteration_s, why.faster_gpus_s) +
           " (iteration time, simulated again)" + (why.failure.empty() ? "" : "; " + why.failure);
}

}  // namespace dtsim::cli
