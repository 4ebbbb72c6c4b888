#include "dtsim/hardware_cost.hpp"

#include <cmath>
#include <filesystem>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"

namespace dtsim {
namespace {

constexpr double kMaxUsd = 1e12;
constexpr double kMaxWatts = 1e6;

// A figure of a cost file: {value, date, source}; the date and source are required so that every shipped
// number says where it comes from.
std::optional<double> figure(const ConfigNode& figures, std::string_view key, double max_value) {
    if (!figures.has(key)) return std::nullopt;
    const auto node = figures.child(key);
    node.require_map_with_keys({"value", "date", "source"});
    node.text("date");
    node.text("source");
    return node.number("value", 0, max_value);
}

HardwareCosts read_cost_file(const std::filesystem::path& path, std::initializer_list<std::string_view> keys) {
    const auto doc = ConfigNode::parse_file(path.string());
    doc.require_map_with_keys({"kind", "name", "figures"});
    const auto figures = doc.child("figures");
    figures.require_map_with_keys(keys);
    HardwareCosts costs;
    costs.cloud_usd_per_gpu_hour = figure(figures, "cloud_usd_per_gpu_hour", kMaxUsd);
    costs.gpu_capital_usd = figure(figures, "gpu_capital_usd", kMaxUsd);
    costs.gpu_power_watts = figure(figures, "gpu_power_watts", kMaxWatts);
    costs.nic_capital_usd = figure(figures, "nic_capital_usd", kMaxUsd);
    costs.nic_power_watts = figure(figures, "nic_power_watts", kMaxWatts);
    costs.switch_port_capital_usd = figure(figures, "switch_port_capital_usd", kMaxUsd);
    costs.switch_port_power_watts = figure(figures, "switch_port_power_watts", kMaxWatts);
    return costs;
}

std::optional<double> number_if(const ConfigNode& node, std::string_view key, double max_value) {
    return node.has(key) ? std::optional(node.number(key, 0, max_value)) : std::nullopt;
}

}  // namespace

HardwareCosts HardwareCosts::overridden_by(const HardwareCosts& other) const {
    HardwareCosts out = *this;
    const auto take = [](std::optional<double>& mine, const std::optional<double>& theirs) {
        if (theirs) mine = theirs;
    };
    take(out.cloud_usd_per_gpu_hour, other.cloud_usd_per_gpu_hour);
    take(out.gpu_capital_usd, other.gpu_capital_usd);
    take(out.gpu_power_watts, other.gpu_power_watts);
    take(out.nic_capital_usd, other.nic_capital_usd);
    take(out.nic_power_watts, other.nic_power_watts);
    take(out.switch_port_capital_usd, other.switch_port_capital_usd);
    take(out.switch_port_power_watts, other.switch_port_power_watts);
    return out;
}

HardwareCosts load_hardware_costs(const std::string& gpu_preset, const std::string& nic_preset) {
    const auto folder = data_dir() / "hardware" / "cost";
    HardwareCosts costs;
    std::error_code ignored;
    if (const auto gpu = folder / (gpu_preset + ".yaml"); !gpu_preset.empty() && std::filesystem::exists(gpu, ignored))
        costs = read_cost_file(gpu, {"cloud_usd_per_gpu_hour", "gpu_capital_usd", "gpu_power_watts"});
    if (const auto nic = folder / (nic_preset + ".yaml"); !nic_preset.empty() && std::filesystem::exists(nic, ignored))
        costs = costs.overridden_by(
            read_cost_file(nic, {"nic_capital_usd", "nic_power_watts", "switch_port_capital_usd", "switch_port_power_watts"}));
    return costs;
}

HardwareCosts read_hardware_costs(const ConfigNode& node) {
    node.require_map_with_keys({"cloud_usd_per_gpu_hour", "gpu_capital_usd", "gpu_power_watts", "nic_capital_usd", "nic_power_watts",
                                "switch_port_capital_usd", "switch_port_power_watts"});
    HardwareCosts costs;
    costs.cloud_usd_per_gpu_hour = number_if(node, "cloud_usd_per_gpu_hour", kMaxUsd);
    costs.gpu_capital_usd = number_if(node, "gpu_capital_usd", kMaxUsd);
    costs.gpu_power_watts = number_if(node, "gpu_power_watts", kMaxWatts);
    costs.nic_capital_usd = number_if(node, "nic_capital_usd", kMaxUsd);
    costs.nic_power_watts = number_if(node, "nic_power_watts", kMaxWatts);
    costs.switch_port_capital_usd = number_if(node, "switch_port_capital_usd", kMaxUsd);
    costs.switch_port_power_watts = number_if(node, "switch_port_power_watts", kMaxWatts);
    return costs;
}

double iterations_for(const TrainingTarget& target, double global_batch, double tokens_per_sequence) {
    switch (target.kind) {
        case TrainingTarget::Kind::iterations: return std::ceil(target.amount);
        case TrainingTarget::Kind::samples: return std::ceil(target.amount / global_batch);
        case TrainingTarget::Kind::tokens: return std::ceil(target.amount / (global_batch * tokens_per_sequence));
    }
    return 0;
}

double switch_ports(int nics, bool tiered, double oversubscription) {
    return tiered ? nics * (1 + 2 / oversubscription) : nics;
}

TrainingCost training_cost(double iterations, double iteration_s, const ClusterParts& parts, const HardwareCosts& c) {
    TrainingCost out;
    out.time_s = iterations * iteration_s;
    const double hours = out.time_s / 3600;
    if (c.cloud_usd_per_gpu_hour) out.cloud_usd = hours * parts.gpus * *c.cloud_usd_per_gpu_hour;
    if (c.gpu_capital_usd && c.nic_capital_usd && c.switch_port_capital_usd)
        out.capital_usd = parts.gpus * *c.gpu_capital_usd + parts.nics * *c.nic_capital_usd + parts.switch_ports * *c.switch_port_capital_usd;
    const double watts = parts.gpus * c.gpu_power_watts.value_or(0) + parts.nics * c.nic_power_watts.value_or(0) +
                         parts.switch_ports * c.switch_port_power_watts.value_or(0);
    out.energy_kwh = watts * hours / 1000;
    out.energy_complete = c.gpu_power_watts && c.nic_power_watts && c.switch_port_power_watts;
    return out;
}

}  // namespace dtsim
