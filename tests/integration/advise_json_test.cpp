// `dtsim advise --json --db`: every simulated configuration of every option is listed with the run it stored,
// its time-to-train and cost as closed forms of its iteration time, and whether it is on the Pareto frontier
// of time-to-train and cost over all options' configurations.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

#include "dtsim/run_store.hpp"
#include "test_support.hpp"

namespace advise_json_test {

using namespace dtsim;

TEST_CASE("advise --json lists every simulated configuration with its stored run and the frontier", "[integration][cli][advise]") {
    test::TempDir dir;
    const auto study = (test::source_dir() / "tests/data/advise/tiny-study.yaml").string();
    // A run already in the database, which advise's configurations must not be taken for.
    std::ofstream(dir.file("quick.yaml")) << test::quick_scenario("quick");
    REQUIRE(test::run_dtsim({"simulate", dir.file("quick.yaml"), "--db", dir.file("runs.db"), "--quiet"}).exit_code == 0);
    const auto result = test::run_dtsim({"advise", study, "--jobs", "2", "--quiet", "--json", dir.file("advice.json"), "--db", dir.file("runs.db")});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    std::ifstream in(dir.file("advice.json"));
    const auto advice = nlohmann::json::parse(in);
    const auto runs = RunStore(dir.file("runs.db")).list();
    REQUIRE(runs.size() == 5);  // the earlier run, then two configurations per option
    std::set<std::int64_t> ids;
    REQUIRE(advice.size() == 2);
    for (const auto& option : advice) {
        const auto& configurations = option["configurations"];
        REQUIRE(configurations.size() == 2);
        CHECK(configurations[0]["configuration"] == option["configuration"]);  // ranked fastest first, as plan does
        CHECK(configurations[0]["iteration_time_s"].get<double>() <= configurations[1]["iteration_time_s"].get<double>());
        std::set<int> tensor;
        for (const auto& c : configurations) {
            CAPTURE(c.dump());
            tensor.insert(c["tensor"].get<int>());
            CHECK(c["tensor"].get<int>() * c["data"].get<int>() == 2);
            const double time_s = option["iterations"].get<double>() * c["iteration_time_s"].get<double>();
            CHECK(c["time_to_train_s"].get<double>() == Approx(time_s));
            CHECK(c["cost_usd"].get<double>() == Approx(time_s / 3600 * 2 * option["cloud_usd_per_gpu_hour"].get<double>()));
            // Its run: stored by this advise, under the option's label, with the same iteration time.
            const auto id = c["run_id"].get<std::int64_t>();
            CHECK(id > 1);
            ids.insert(id);
            const auto run = std::find_if(runs.begin(), runs.end(), [id](const RunListEntry& r) { return r.id == id; });
            REQUIRE(run != runs.end());
            CHECK(run->label == option["label"].get<std::string>());
            CHECK(run->label == "tiny: " + option["option"].get<std::string>());
            CHECK(run->iteration_time_s == Approx(c["iteration_time_s"].get<double>()).epsilon(1e-12));
            CHECK_THAT(run->overrides.at("training.parallelism"), Catch::Contains("tensor: " + std::to_string(c["tensor"].get<int>()) + ","));
        }
        CHECK(tensor == std::set<int>{1, 2});
    }
    CHECK(ids.size() == 4);
    // `dear` is `cheap` at twice the price: none of its configurations is on the frontier. Within `cheap` the
    // cost is proportional to the time, so only its fastest configuration is.
    const auto& cheap = advice[0]["configurations"];
    const bool tie = cheap[0]["iteration_time_s"] == cheap[1]["iteration_time_s"];
    CHECK(cheap[0]["pareto"] == true);
    CHECK(cheap[1]["pareto"] == tie);
    for (const auto& c : advice[1]["configurations"]) CHECK(c["pareto"] == false);
}

}  // namespace advise_json_test
