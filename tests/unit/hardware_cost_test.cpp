// What training costs: the closed forms of iterations, GPU-hours, capital and energy, the cost data files'
// figures, and how advise ranks options and marks the Pareto frontier.
#include <catch2/catch.hpp>

#include "advise_ranking.hpp"
#include "plan_why.hpp"
#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/hardware_cost.hpp"

namespace hardware_cost_test {

using namespace dtsim;

TEST_CASE("iterations_for: a target in tokens, samples or iterations, the last iteration whole", "[unit][advise]") {
    CHECK(iterations_for({TrainingTarget::Kind::tokens, 1e12}, 256, 8192) == 476838);  // 1e12 / 2,097,152 = 476,837.2
    CHECK(iterations_for({TrainingTarget::Kind::samples, 1000}, 256, 8192) == 4);
    CHECK(iterations_for({TrainingTarget::Kind::iterations, 7}, 256, 8192) == 7);
}

TEST_CASE("training_cost: GPU-hours × price, capital and energy of the parts, and owning them", "[unit][advise]") {
    HardwareCosts costs;
    costs.cloud_usd_per_gpu_hour = 4.0;
    costs.gpu_power_watts = 700;
    const ClusterParts parts{64, 64, switch_ports(64, true, 2)};
    CHECK(parts.switch_ports == 128);  // 64 leaf ports and 32 up-links, each with a spine port
    const auto c = training_cost(1800, 2.0, parts, costs);  // one hour
    CHECK(c.time_s == 3600);
    REQUIRE(c.cloud_usd);
    CHECK(*c.cloud_usd == Approx(64 * 4.0));
    CHECK_FALSE(c.capital_usd);  // no GPU (server) price
    CHECK_FALSE(c.owned_usd);
    CHECK(c.energy_kwh == Approx(64 * 0.7));
    CHECK_FALSE(c.energy_complete());
    // Nor is it known how many NICs the servers come with: every NIC is beyond them, and without a figure.
    CHECK(c.power_absent == std::vector<PowerTerm>{PowerTerm::host, PowerTerm::nic, PowerTerm::switch_port, PowerTerm::pue});

    // Owned: the servers (GPU share, their one NIC per GPU included) and switch ports priced and powered, the
    // capital spread over 5 years of 365.25 days, the energy at $0.10/kWh.
    HardwareCosts owned;
    owned.server_nics_per_gpu = 1;
    owned.host_power_watts = 300;
    owned.switch_port_power_watts = 10;
    owned.pue = 1.5;
    owned.gpu_capital_usd = 30000;
    owned.switch_port_capital_usd = 1000;
    owned.amortisation_years = 5;
    owned.electricity_usd_per_kwh = 0.1;
    const auto full = training_cost(1800, 2.0, parts, costs.overridden_by(owned));
    // IT power (GPUs and their servers, switch ports) for one hour, × the PUE.
    CHECK(full.energy_kwh == Approx((64 * (700 + 300) + 128 * 10) / 1000.0 * 1.5));
    CHECK(full.energy_complete());
    CHECK(full.power_absent.empty());
    REQUIRE(full.capital_usd);
    CHECK(*full.capital_usd == Approx(64 * 30000 + 128 * 1000));
    CHECK(full.capital_complete);
    REQUIRE(full.owned_usd);
    CHECK(*full.owned_usd == Approx((64 * 30000 + 128 * 1000) / (5 * 365.25 * 24) + full.energy_kwh * 0.1));
    CHECK(full.owned_complete());

    // Servers that come with one NIC per GPU: their figures include those, so NIC figures count only for NICs beyond
    // them (here a second per GPU); without switch-port prices the capital is a lower bound.
    HardwareCosts extra = owned;
    extra.nic_capital_usd = 2000;
    extra.nic_power_watts = 25;
    extra.switch_port_capital_usd.reset();
    const ClusterParts two_per_gpu{64, 128, switch_ports(128, true, 2)};
    CHECK(extra_nics(parts, extra) == 0);
    CHECK(extra_nics(two_per_gpu, extra) == 64);
    const auto same = training_cost(1800, 2.0, parts, costs.overridden_by(extra));
    CHECK(*same.capital_usd == Approx(64 * 30000));
    CHECK(same.energy_kwh == Approx(full.energy_kwh));
    const auto more = training_cost(1800, 2.0, two_per_gpu, costs.overridden_by(extra));
    CHECK(*more.capital_usd == Approx(64 * 30000 + 64 * 2000));
    CHECK_FALSE(more.capital_complete);
    CHECK_FALSE(more.owned_complete());
    CHECK(more.energy_kwh == Approx((64 * (700 + 300) + 64 * 25 + 256 * 10) / 1000.0 * 1.5));
    CHECK(more.energy_complete());
    CHECK(switch_ports(16, false, 1) == 16);
    // Without the servers' NIC count every NIC is beyond them; NICs beyond without figures are named.
    HardwareCosts unknown = extra;
    unknown.server_nics_per_gpu.reset();
    CHECK(extra_nics(parts, unknown) == 64);
    HardwareCosts unpriced = extra;
    unpriced.nic_capital_usd.reset();
    unpriced.nic_power_watts.reset();
    unpriced.switch_port_capital_usd = 1000;
    const auto lacking = training_cost(1800, 2.0, two_per_gpu, costs.overridden_by(unpriced));
    CHECK_FALSE(lacking.capital_complete);
    CHECK(lacking.power_absent == std::vector<PowerTerm>{PowerTerm::nic});
    CHECK(training_cost(1800, 2.0, parts, costs.overridden_by(unpriced)).capital_complete);

    // Without the switches' own power the energy is a lower bound over what is known, that term named.
    HardwareCosts no_switch = owned;
    no_switch.switch_port_power_watts.reset();
    const auto lower = training_cost(1800, 2.0, parts, costs.overridden_by(no_switch));
    CHECK(lower.energy_kwh == Approx(full.energy_kwh - 128 * 0.010 * 1.5));
    CHECK(lower.power_absent == std::vector<PowerTerm>{PowerTerm::switch_port});
    CHECK_FALSE(lower.owned_complete());
}

TEST_CASE("cost figures: a PUE below 1 or a negative NIC count is refused naming its key", "[unit][advise]") {
    const auto source = std::make_shared<const DocumentSource>(DocumentSource{"study.yaml", {}});
    CHECK_THROWS_WITH(read_hardware_costs(ConfigNode::parse("pue: 0.9\n", source)), Catch::Contains("study.yaml") && Catch::Contains("pue"));
    CHECK(read_hardware_costs(ConfigNode::parse("pue: 1.2\n", source)).pue == 1.2);
    CHECK_THROWS_WITH(read_hardware_costs(ConfigNode::parse("server_nics_per_gpu: -1\n", source)), Catch::Contains("server_nics_per_gpu"));
}

TEST_CASE("power terms: each named once and read back", "[unit][advise][vocabulary]") {
    for (const auto& [term, name] : kPowerTermNames.entries) CHECK(kPowerTermNames.parse(name) == term);
}

TEST_CASE("load_hardware_costs: the shipped figures, none for a preset without a file", "[unit][advise]") {
    const auto h100 = load_hardware_costs("h100-sxm", "ib-ndr");
    REQUIRE(h100.cloud_usd_per_gpu_hour);
    CHECK(*h100.cloud_usd_per_gpu_hour == Approx(39.33 / 8).epsilon(1e-3));  // the instance-hour over its 8 GPUs
    CHECK(h100.gpu_power_watts == 700);
    CHECK(*h100.host_power_watts + *h100.gpu_power_watts == Approx(10200.0 / 8));  // a DGX H100's maximum, per GPU
    CHECK(h100.switch_port_capital_usd);                                            // from ib-ndr's file
    CHECK(h100.amortisation_years);                                                 // from ownership.yaml, for every preset
    CHECK(h100.pue == Approx(1.58));                                                // likewise
    CHECK(h100.switch_port_power_watts == Approx(1720.0 / 64));                     // a QM9700's maximum over its 64 ports
    CHECK(h100.server_nics_per_gpu == 1);                                           // a DGX H100's 8 ConnectX-7 for 8 GPUs
    CHECK(h100.nic_power_watts == Approx(24.9));                                    // a ConnectX-7 beyond those, typical
    const auto b200 = load_hardware_costs("b200", "eth-200g");
    CHECK(b200.gpu_capital_usd == Approx(515000.0 / 8));                            // a DGX B200's reported price, per GPU
    CHECK(b200.nic_power_watts == Approx(16.7));                                    // the 200G ConnectX-7
    CHECK_FALSE(b200.switch_port_capital_usd);                                      // no Ethernet port price shipped
    const auto cpu = load_hardware_costs("cpu", "");
    CHECK_FALSE(cpu.cloud_usd_per_gpu_hour);
    CHECK(cpu.electricity_usd_per_kwh);
}

TEST_CASE("every shipped cost file loads, each figure with its date and source", "[unit][advise]") {
    int files = 0;
    for (const auto& name : list_data_names("hardware/cost")) {
        CAPTURE(name);
        CHECK_NOTHROW(load_hardware_costs(name, ""));
        ++files;
    }
    CHECK(files >= 9);
}

TEST_CASE("advise ranking: by time or by cost, and the Pareto frontier", "[unit][advise]") {
    using namespace dtsim::cli;
    const std::vector<RankedOption> options{
        {"fast-dear", 10.0, 300.0}, {"slow-cheap", 20.0, 100.0}, {"dominated", 25.0, 300.0}, {"unpriced", 5.0, std::nullopt}, {"none", {}, {}}};
    CHECK(rank_options(options, Objective::time) == std::vector<size_t>{3, 0, 1, 2, 4});
    CHECK(rank_options(options, Objective::cost) == std::vector<size_t>{1, 0, 2, 3, 4});
    CHECK(pareto_frontier(options) == std::vector<bool>{true, true, false, false, false});
}

TEST_CASE("plan why: the bottleneck and sensitivity lines", "[unit][advise]") {
    dtsim::cli::PlanWhy why;
    why.iteration_s = 2.0;
    why.exposed_share[static_cast<size_t>(Dimension::dp)] = 0.31;
    why.exposed_share[static_cast<size_t>(Dimension::tp)] = 0.0001;  // below 0.05 %: not named
    why.link[static_cast<size_t>(Dimension::dp)] = "NIC (eth-200g 25 GB/s, fat-tree 2:1)";
    why.bubble_share = 0.05;
    why.faster_nics_s = 1.7;
    why.faster_gpus_s = 1.2;
    CHECK(dtsim::cli::bottleneck_line(why) ==
          "exposed communication 31.0 % of the iteration: dp 31.0 % over NIC (eth-200g 25 GB/s, fat-tree 2:1); pipeline bubble 5.0 %");
    CHECK(dtsim::cli::sensitivity_line(why) == "2× NIC bandwidth: −15.0 %, 2× GPU speed: −40.0 % (iteration time, simulated again)");
}

TEST_CASE("advise objectives: each named once and read back", "[unit][advise][vocabulary]") {
    using namespace dtsim::cli;
    for (const auto& [objective, name] : kObjectiveNames.entries) CHECK(kObjectiveNames.parse(name) == objective);
    CHECK(kObjectiveNames.name(Objective::tokens_per_dollar) == "tokens-per-dollar");
}

}  // namespace hardware_cost_test
