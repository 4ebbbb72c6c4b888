#include "dtsim/hardware_cost.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"

namespace dtsim {
namespace {

constexpr double kMaxUsd = 1e12;
constexpr double kMaxWatts = 1e6;
constexpr double kMaxYears = 100;
constexpr double kMinYears = 0.01;  // what capital is divided by: never zero
constexpr double kHoursPerYear = 365.25 * 24;
constexpr double kMinPue = 1;  // a facility draws at least what its IT equipment does
constexpr double kMaxPue = 10;
constexpr double kMaxNicsPerGpu = 64;

// Every figure: its key in cost files and studies, where it goes, and its plausible range.
struct FigureKey {
    std::string_view key;
    std::optional<double> HardwareCosts::*member;
    double max_value;
    double min_value = 0;
};
constexpr FigureKey kFigures[] = {
    {"cloud_usd_per_gpu_hour", &HardwareCosts::cloud_usd_per_gpu_hour, kMaxUsd},
    {"gpu_capital_usd", &HardwareCosts::gpu_capital_usd, kMaxUsd},
    {"gpu_power_watts", &HardwareCosts::gpu_power_watts, kMaxWatts},
    {"host_power_watts", &HardwareCosts::host_power_watts, kMaxWatts},
    {"server_nics_per_gpu", &HardwareCosts::server_nics_per_gpu, kMaxNicsPerGpu},
    {"nic_capital_usd", &HardwareCosts::nic_capital_usd, kMaxUsd},
    {"nic_power_watts", &HardwareCosts::nic_power_watts, kMaxWatts},
    {"switch_port_capital_usd", &HardwareCosts::switch_port_capital_usd, kMaxUsd},
    {"switch_port_power_watts", &HardwareCosts::switch_port_power_watts, kMaxWatts},
    {"amortisation_years", &HardwareCosts::amortisation_years, kMaxYears, kMinYears},
    {"electricity_usd_per_kwh", &HardwareCosts::electricity_usd_per_kwh, kMaxUsd},
    {"pue", &HardwareCosts::pue, kMaxPue, kMinPue},
};
constexpr auto kFigureKeys = [] {
    std::array<std::string_view, std::size(kFigures)> keys{};
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = kFigures[i].key;
    return keys;
}();

// The figures of `node`: plain numbers in a study; in a cost file {value, date, source}, the date and
// source required so that every shipped number says where it comes from.
HardwareCosts read_figures(const ConfigNode& node, bool sourced) {
    node.require_map_with_keys(kFigureKeys);
    HardwareCosts costs;
    for (const auto& f : kFigures) {
        if (!node.has(f.key)) continue;
        if (!sourced) {
            costs.*f.member = node.number(f.key, f.min_value, f.max_value);
            continue;
        }
        const auto figure = node.child(f.key);
        figure.require_map_with_keys({"value", "date", "source"});
        figure.text("date");
        figure.text("source");
        costs.*f.member = figure.number("value", f.min_value, f.max_value);
    }
    return costs;
}

HardwareCosts read_cost_file(const std::filesystem::path& path) {
    const auto doc = ConfigNode::parse_file(path.string());
    doc.require_map_with_keys({"kind", "name", "figures"});
    return read_figures(doc.child("figures"), true);
}

}  // namespace

HardwareCosts HardwareCosts::overridden_by(const HardwareCosts& other) const {
    HardwareCosts out = *this;
    for (const auto& f : kFigures)
        if (other.*f.member) out.*f.member = other.*f.member;
    return out;
}

HardwareCosts load_hardware_costs(const std::string& gpu_preset, const std::string& nic_preset) {
    const auto folder = data_dir() / "hardware" / "cost";
    HardwareCosts costs;
    std::error_code ignored;
    for (const auto& preset : {std::string(kOwnershipCostFile), gpu_preset, nic_preset})
        if (const auto file = folder / (preset + ".yaml"); !preset.empty() && std::filesystem::exists(file, ignored))
            costs = costs.overridden_by(read_cost_file(file));
    return costs;
}

HardwareCosts read_hardware_costs(const ConfigNode& node) { return read_figures(node, false); }

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

double extra_nics(const ClusterParts& parts, const HardwareCosts& costs) {
    return std::max(0.0, parts.nics - parts.gpus * costs.server_nics_per_gpu.value_or(0));
}

TrainingCost training_cost(double iterations, double iteration_s, const ClusterParts& parts, const HardwareCosts& c) {
    TrainingCost out;
    out.time_s = iterations * iteration_s;
    const double hours = out.time_s / 3600;
    if (c.cloud_usd_per_gpu_hour) out.cloud_usd = hours * parts.gpus * *c.cloud_usd_per_gpu_hour;
    // The servers' figures include their own NICs: NIC figures count only the NICs beyond those.
    const double nics = extra_nics(parts, c);
    if (c.gpu_capital_usd)
        out.capital_usd = parts.gpus * *c.gpu_capital_usd + nics * c.nic_capital_usd.value_or(0) +
                          parts.switch_ports * c.switch_port_capital_usd.value_or(0);
    out.capital_complete = c.gpu_capital_usd && c.switch_port_capital_usd && (nics == 0 || c.nic_capital_usd);
    const double watts = parts.gpus * (c.gpu_power_watts.value_or(0) + c.host_power_watts.value_or(0)) + nics * c.nic_power_watts.value_or(0) +
                         parts.switch_ports * c.switch_port_power_watts.value_or(0);
    out.energy_kwh = watts * hours / 1000 * c.pue.value_or(1);
    const std::pair<PowerTerm, bool> terms[] = {{PowerTerm::gpu, c.gpu_power_watts.has_value()},
                                                {PowerTerm::host, c.host_power_watts.has_value()},
                                                {PowerTerm::nic, nics == 0 || c.nic_power_watts},
                                                {PowerTerm::switch_port, c.switch_port_power_watts.has_value()},
                                                {PowerTerm::pue, c.pue.has_value()}};
    for (const auto& [term, known] : terms)
        if (!known) out.power_absent.push_back(term);
    if (out.capital_usd && c.amortisation_years && c.electricity_usd_per_kwh)
        out.owned_usd = *out.capital_usd * hours / (*c.amortisation_years * kHoursPerYear) + out.energy_kwh * *c.electricity_usd_per_kwh;
    return out;
}

}  // namespace dtsim
