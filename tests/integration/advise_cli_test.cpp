// `dtsim advise`: each option's time-to-train is its iterations × its best configuration's iteration time, its
// cost the GPU-hours × its price per GPU-hour, its owned cost the amortised capital plus the energy's price (closed
// forms over what advise reports); options rank by the objective; a bad study is refused naming the key.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <regex>

#include "test_support.hpp"

namespace advise_cli_test {

using namespace dtsim;

namespace {

std::string study(const std::string& extra) {
    const std::string cluster = "{nodes: 1, gpus_per_node: 2, gpu: h100-sxm, intra_node: {bandwidth: 100Tbps, latency: 0us},"
                                " nic: {bandwidth: 400Gbps, latency: 0us}, network_model: ideal}";
    return "name: tiny\n"
           "scenario:\n"
           "  model: {zoo: gpt3-125m, precision: bf16, micro_batch: 1}\n"
           "  training: {iterations: 1, fidelity: flow, global_batch: 4, strategy: {kind: allreduce, bucket: 1GB}}\n"
           "target: {tokens: 1e9}\n"
           "search: {zero: [0], recompute: [none], micro_batch: [1], pipeline: [1], context: [1]}\n"
           "simulate: 2\n"
           "options:\n"
           "  - {name: cheap, cluster: " + cluster + ", costs: {cloud_usd_per_gpu_hour: 1.5}}\n"
           "  - {name: dear, cluster: " + cluster + ", costs: {cloud_usd_per_gpu_hour: 3}}\n" + extra;
}

}  // namespace

TEST_CASE("advise: time-to-train and cost per option are the closed forms of the simulated iteration", "[integration][cli][advise]") {
    test::TempDir dir;
    std::ofstream(dir.file("study.yaml")) << study("");
    const auto result = test::run_dtsim({"advise", dir.file("study.yaml"), "--objective", "cost", "--jobs", "2", "--quiet",
                                         "--json", dir.file("advice.json")});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    std::ifstream in(dir.file("advice.json"));
    const auto advice = nlohmann::json::parse(in);
    REQUIRE(advice.size() == 2);
    // 1e9 tokens over 4 sequences of 2048 tokens per iteration: 122,070.3, so 122,071 iterations.
    for (const auto& option : advice) {
        CHECK(option["iterations"] == 122071);
        const double time_s = option["iterations"].get<double>() * option["iteration_time_s"].get<double>();
        CHECK(option["time_to_train_s"].get<double>() == Approx(time_s));
        CHECK(option["cost_usd"].get<double>() == Approx(time_s / 3600 * 2 * option["cloud_usd_per_gpu_hour"].get<double>()));
        // Two H100s, each an eighth of a 10.2 kW DGX, × the shipped PUE; no NIC preset, so no switch-port figures.
        CHECK(option["energy_kwh"].get<double>() == Approx(time_s / 3600 * 2 * 10.2 / 8 * option["pue"].get<double>()));
        CHECK(option["power_absent"] == nlohmann::json::array({"switch port"}));
        // Owned: the capital spread over the amortisation period (years of 365.25 days), plus the energy at its price.
        const double hours = time_s / 3600;
        const double amortised = option["capital_usd"].get<double>() * hours / (option["amortisation_years"].get<double>() * 365.25 * 24);
        CHECK(option["owned_usd"].get<double>() == Approx(amortised + option["energy_kwh"].get<double>() * option["electricity_usd_per_kwh"].get<double>()));
        CHECK_FALSE(option["owned_complete"].get<bool>());  // no switch-port figures for a NIC without a preset
    }
    // The same cluster at twice the price: the same time, twice the cost, ranked second by cost and off the frontier.
    CHECK(advice[1]["cost_usd"].get<double>() == Approx(2 * advice[0]["cost_usd"].get<double>()));
    CHECK_THAT(result.output, Catch::Contains("1  cheap") && Catch::Contains("2  dear"));
    CHECK_THAT(result.output, Catch::Contains("ranked by cost") && Catch::Contains("kWh") && Catch::Contains("$") && Catch::Contains("≥ $") &&
                                  Catch::Contains("no power figure"));

    // Why: both GPUs are in one node, so the NICs carry nothing and twice their bandwidth changes nothing;
    // twice the GPU's rates halve every kernel's roofline but not the fixed cost per kernel.
    std::smatch m;
    const std::regex sensitivity("2× NIC bandwidth: ([−+])([0-9.]+) %, 2× GPU speed: −([0-9.]+) %");
    REQUIRE(std::regex_search(result.output, m, sensitivity));
    CHECK(std::stod(m[2].str()) == 0);
    CHECK(std::stod(m[3].str()) > 35);
    CHECK(std::stod(m[3].str()) < 50);
    CHECK_THAT(result.output, Catch::Contains("cheap: exposed communication"));
}

TEST_CASE("advise refuses a study it cannot run, naming the file and key", "[integration][cli][advise]") {
    test::TempDir dir;
    std::ofstream(dir.file("bad.yaml")) << study("") << "budget: 3\n";
    const auto unknown = test::run_dtsim({"advise", dir.file("bad.yaml")});
    CHECK(unknown.exit_code == 2);
    CHECK_THAT(unknown.output, Catch::Contains("bad.yaml") && Catch::Contains("budget"));
    std::ofstream(dir.file("target.yaml")) << study("").replace(study("").find("target: {tokens: 1e9}"), 21, "target: {tokens: 1e9, samples: 4}");
    const auto target = test::run_dtsim({"advise", dir.file("target.yaml")});
    CHECK(target.exit_code == 2);
    CHECK_THAT(target.output, Catch::Contains("exactly one of tokens, samples or iterations"));
    std::ofstream(dir.file("cluster.yaml")) << study("  - {name: odd, cluster: {nodes: 1, gpus_per_node: 3, gpu: h100-sxm}}\n");
    const auto cluster = test::run_dtsim({"advise", dir.file("cluster.yaml")});
    CHECK(cluster.exit_code == 2);
    CHECK_THAT(cluster.output, Catch::Contains("options") && Catch::Contains("cluster"));
}

}  // namespace advise_cli_test
