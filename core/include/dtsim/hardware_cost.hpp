#pragma once
// What hardware costs to rent, buy and power (docs/advise.md, "Costs"): the figures of
// data/hardware/cost/, each with its date and public source, which a study may override; and the closed
// forms that turn a training run's length into dollars and kilowatt-hours.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtsim/name_table.hpp"

namespace dtsim {

class ConfigNode;

/// Figures per item; none where no public figure is shipped and the study gives none.
struct HardwareCosts {
    std::optional<double> cloud_usd_per_gpu_hour;  // list price of one GPU of a cloud offer, per hour
    std::optional<double> gpu_capital_usd;         // one GPU's share of its server's price, the server's own NICs included
    std::optional<double> gpu_power_watts;         // one GPU at its thermal design power
    std::optional<double> host_power_watts;        // one GPU's share of the rest of its server at its maximum, its NICs included
    std::optional<double> server_nics_per_gpu;     // compute NICs its server comes with, per GPU: in the figures above
    std::optional<double> nic_capital_usd;         // one NIC beyond the server's own (every NIC without server_nics_per_gpu)
    std::optional<double> nic_power_watts;         // likewise
    std::optional<double> switch_port_capital_usd;  // one switch port, its share of the switch
    std::optional<double> switch_port_power_watts;  // one port's share of its switch at its maximum, the transceivers in its cages included
    std::optional<double> amortisation_years;        // what owned hardware's capital is spread over
    std::optional<double> electricity_usd_per_kwh;   // what owned hardware's energy costs
    std::optional<double> pue;                       // power usage effectiveness: the facility's power over its IT equipment's
    /// `other`'s figures where it has them, these elsewhere.
    HardwareCosts overridden_by(const HardwareCosts& other) const;
};

/// The cost file of what owning hardware costs wherever it is: the amortisation period and the electricity price.
inline constexpr std::string_view kOwnershipCostFile = "ownership";

/// data/hardware/cost/ownership.yaml, then <gpu>.yaml (GPU figures) and <nic>.yaml (NIC and switch port
/// figures), where they exist: nothing is known of a preset without a file.
HardwareCosts load_hardware_costs(const std::string& gpu_preset, const std::string& nic_preset);

/// A `costs:` section of a study (the same keys as HardwareCosts's, in its units): located errors.
HardwareCosts read_hardware_costs(const ConfigNode& node);

/// What a training target asks: a number of tokens, of samples (sequences) or of iterations.
struct TrainingTarget {
    enum class Kind { tokens, samples, iterations } kind = Kind::iterations;
    double amount = 0;
};

/// Iterations to reach `target` with `global_batch` sequences of `tokens_per_sequence` tokens per iteration:
/// the last one counts whole.
double iterations_for(const TrainingTarget& target, double global_batch, double tokens_per_sequence);

/// A cluster's parts that cost: GPUs, NICs, and the fabric's switch ports.
struct ClusterParts {
    int gpus = 0;
    int nics = 0;
    double switch_ports = 0;
};

/// Switch ports of a fabric: a star has one per NIC; a tiered fabric (fat-tree, rail-optimized) a leaf port
/// per NIC and, with oversubscription o, NICs / o leaf up-links each ending on a spine port.
double switch_ports(int nics, bool tiered, double oversubscription);

/// NICs beyond those the servers come with (server_nics_per_gpu per GPU; every NIC where that is unknown): the
/// only NICs with a price and power of their own.
double extra_nics(const ClusterParts& parts, const HardwareCosts& costs);

/// The terms of an owned cluster's energy that need a figure; the servers' figures include their own NICs, so
/// NICs are a term only where there are more.
enum class PowerTerm { gpu, host, nic, switch_port, pue };
inline constexpr auto kPowerTermNames =
    make_name_table(std::pair{PowerTerm::gpu, "GPU"}, std::pair{PowerTerm::host, "host"}, std::pair{PowerTerm::nic, "NIC"},
                    std::pair{PowerTerm::switch_port, "switch port"}, std::pair{PowerTerm::pue, "PUE"});

struct TrainingCost {
    double time_s = 0;
    std::optional<double> cloud_usd;    // GPU-hours × the price per GPU-hour
    std::optional<double> capital_usd;  // the priced parts; none without a GPU price
    bool capital_complete = false;      // GPUs (their servers), switch ports and any NICs beyond the servers' own priced
    double energy_kwh = 0;              // the parts whose power is known, for the whole run, × the PUE where known
    std::vector<PowerTerm> power_absent;  // the terms without a figure, left out of energy_kwh (a PUE of 1 where absent)
    std::optional<double> owned_usd;    // capital × run / amortisation period + energy × price; needs all three
    bool energy_complete() const { return power_absent.empty(); }
    bool owned_complete() const { return capital_complete && energy_complete(); }
};

TrainingCost training_cost(double iterations, double iteration_s, const ClusterParts& parts, const HardwareCosts& costs);

}  // namespace dtsim
