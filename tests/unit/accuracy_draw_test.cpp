// bench/accuracy's seeded scenario set: the same seed draws the same files, every strategy the runtime
// measures is covered, and every drawn scenario loads and is one the measured runtime executes.
#include <catch2/catch.hpp>

#include <set>

#include "dtsim/scenario.hpp"
#include "measurability.hpp"
#include "scenario_draw.hpp"
#include "test_support.hpp"

namespace accuracy_draw_test {

using namespace dtsim;

namespace {

// The committed testbed profiles stand in for the run's own calibrations.
std::string with_profiles(std::string text) {
    const auto profiles = test::source_dir() / "bench/results/accuracy-500mbit";
    for (const auto& [placeholder, file] : {std::pair{"@PROFILE_1@", "profile-5x1.json"}, std::pair{"@PROFILE_2@", "profile-2x2.json"}}) {
        const auto at = text.find(placeholder);
        if (at != std::string::npos) text.replace(at, std::string(placeholder).size(), (profiles / file).string());
    }
    return text;
}

}  // namespace

TEST_CASE("the accuracy draw is the same for the same seed and differs for another") {
    const auto first = bench::draw_accuracy_scenarios(7, 32);
    const auto again = bench::draw_accuracy_scenarios(7, 32);
    const auto other = bench::draw_accuracy_scenarios(8, 32);
    REQUIRE(first.size() == 32);
    int differing = 0;
    for (std::size_t i = 0; i < first.size(); ++i) {
        CHECK(first[i].file_name == again[i].file_name);
        CHECK(first[i].text == again[i].text);
        differing += first[i].text != other[i].text;
    }
    CHECK(differing == 32);  // the seed is in every name, and the draws differ too
    CHECK_THROWS_AS(bench::draw_accuracy_scenarios(7, bench::kMinimumDraw - 1), std::invalid_argument);
}

TEST_CASE("every drawn scenario loads and is measurable on the testbed, and the draw covers every strategy") {
    std::set<std::string> algorithms, syncs, compressions;
    std::set<int> servers;
    int stragglers = 0, no_overlap = 0, two_per_host = 0;
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        std::set<std::string> names;
        for (const auto& drawn : bench::draw_accuracy_scenarios(seed, 40)) {
            CAPTURE(drawn.file_name, drawn.text);
            CHECK(names.insert(drawn.file_name).second);
            const Scenario scenario = load_scenario_text(with_profiles(drawn.text), drawn.file_name);
            const int ranks = runtime::ranks_needed(scenario);
            CHECK(ranks >= 2);
            CHECK(ranks <= 5);  // the testbed's hosts
            CHECK(drawn.text.rfind("# testbed: " + std::string(scenario.cluster.gpus_per_node == 2 ? "--per-host 2 " : "") +
                                       "--np " + std::to_string(ranks) + "\n",
                                   0) == 0);
            CHECK_FALSE(runtime::measure_refusal(scenario, ranks, runtime::ComputeMode::sleep, false).has_value());
            const auto& strategy = scenario.training.strategy;
            if (strategy.kind == StrategyKind::allreduce) algorithms.insert(to_string(strategy.algorithm));
            else syncs.insert(to_string(strategy.sync)), servers.insert(strategy.servers);
            compressions.insert(to_string(scenario.training.compression.kind));
            const double gradient_mb = scenario.model.direct.gradient_bytes / 1e6;
            CHECK(gradient_mb >= 1.0);
            CHECK(gradient_mb <= 40.0);
            stragglers += scenario.training.stragglers.slowdown.empty() ? 0 : 1;
            no_overlap += strategy.overlap ? 0 : 1;
            two_per_host += scenario.cluster.gpus_per_node == 2;
        }
    }
    CHECK(algorithms == std::set<std::string>{"ring", "tree", "halving-doubling", "direct", "hierarchical"});
    CHECK(syncs == std::set<std::string>{"sync", "async", "ssp"});
    CHECK(servers == std::set<int>{1, 2});
    CHECK(compressions == std::set<std::string>{"none", "fp16", "int8", "topk", "powersgd"});
    CHECK(stragglers > 0);
    CHECK(no_overlap > 0);
    CHECK(two_per_host > 0);
}

}  // namespace accuracy_draw_test
