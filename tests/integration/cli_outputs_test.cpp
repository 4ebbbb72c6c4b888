// `dtsim simulate` outputs end to end: folders created, paths checked before simulating, and runs told
// apart in the runs database by their --set overrides and --label (list, --where, export --csv).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_support.hpp"

namespace cli_outputs_test {

using namespace dtsim;

TEST_CASE("simulate creates the folders of its outputs", "[integration][cli][outputs]") {
    test::TempDir dir;
    std::ofstream(dir.file("small.yaml")) << test::quick_scenario("small");
    const auto result = test::run_dtsim({"simulate", dir.file("small.yaml"), "--db", dir.file("out/runs.db"), "--json",
                                         dir.file("out/json/run.json"), "--trace", dir.file("traces/a/trace.json")});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    for (const char* file : {"out/runs.db", "out/json/run.json", "traces/a/trace.json"})
        CHECK(std::filesystem::is_regular_file(dir.file(file)));
}

TEST_CASE("an output path that cannot be written fails before simulating and writes nothing", "[integration][cli][outputs]") {
    test::TempDir dir;
    std::ofstream(dir.file("small.yaml")) << test::quick_scenario("small");
    std::ofstream(dir.file("plain-file")) << "not a folder\n";
    // The database comes last and cannot be created under a file: the JSON before it must not be written.
    const auto result = test::run_dtsim({"simulate", dir.file("small.yaml"), "--json", dir.file("run.json"), "--db",
                                         dir.file("plain-file/runs.db")});
    CAPTURE(result.output);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Catch::Contains("--db " + dir.file("plain-file/runs.db") + ": cannot create the folder"));
    CHECK_FALSE(std::filesystem::exists(dir.file("run.json")));

    const auto folder = test::run_dtsim({"simulate", dir.file("small.yaml"), "--trace", dir.path().string()});
    CHECK(folder.exit_code == 2);
    CHECK_THAT(folder.output, Catch::Contains("--trace " + dir.path().string() + ": is a folder; expected a file name"));

    // An existing file that is not a runs database is refused before the JSON is written.
    std::ofstream(dir.file("notes.txt")) << "not a database\n";
    const auto not_a_database = test::run_dtsim({"simulate", dir.file("small.yaml"), "--json", dir.file("run.json"), "--db",
                                                 dir.file("notes.txt")});
    CHECK(not_a_database.exit_code == 4);
    CHECK_FALSE(std::filesystem::exists(dir.file("run.json")));
}

TEST_CASE("runs list shows each run's overrides and label, filters with --where, and exports CSV", "[integration][cli][runs]") {
    test::TempDir dir;
    std::ofstream(dir.file("small.yaml")) << test::quick_scenario("small");
    const auto db = dir.file("runs.db");
    REQUIRE(test::run_dtsim({"simulate", dir.file("small.yaml"), "--db", db, "--quiet"}).exit_code == 0);
    REQUIRE(test::run_dtsim({"simulate", dir.file("small.yaml"), "--db", db, "--quiet", "--set", "cluster.nodes=4",
                             "--label", "four nodes"})
                .exit_code == 0);
    REQUIRE(test::run_dtsim({"simulate", dir.file("small.yaml"), "--db", db, "--quiet", "--set", "cluster.nic=eth-100g"})
                .exit_code == 0);

    const auto list = test::run_dtsim({"runs", "list", "--db", db});
    CAPTURE(list.output);
    CHECK(list.exit_code == 0);
    CHECK_THAT(list.output, Catch::Contains("four nodes") && Catch::Contains("cluster.nodes=4") &&
                                Catch::Contains("cluster.nic=eth-100g"));

    // An override, or a key as the file wrote it (run 1 and 3 have two nodes from the file).
    const auto four = test::run_dtsim({"runs", "list", "--db", db, "--where", "cluster.nodes=4"});
    CHECK(four.exit_code == 0);
    CHECK_THAT(four.output, Catch::Contains("four nodes"));
    CHECK_THAT(four.output, !Catch::Contains("eth-100g"));
    const auto two = test::run_dtsim({"runs", "list", "--db", db, "--where", "cluster.nodes=2", "--where", "cluster.nic=ib-ndr"});
    CHECK(two.exit_code == 0);
    CHECK_THAT(two.output, !Catch::Contains("four nodes") && !Catch::Contains("eth-100g") && Catch::Contains("small"));
    const auto bad = test::run_dtsim({"runs", "list", "--db", db, "--where", "cluster.nodes"});
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.output, Catch::Contains("--where 'cluster.nodes': expected KEY=VALUE"));

    const auto csv = test::run_dtsim({"runs", "export", "--csv", dir.file("exports/runs.csv"), "--db", db});
    CAPTURE(csv.output);
    REQUIRE(csv.exit_code == 0);
    std::istringstream rows(test::read_file(dir.file("exports/runs.csv")));
    std::string header, line;
    std::getline(rows, header);
    CHECK(header.rfind("id,kind,scenario,label,strategy,created_at,overrides,gpus,", 0) == 0);
    CHECK_THAT(header, Catch::Contains(",samples_per_s,") && Catch::Contains(",tokens_per_s,"));
    int count = 0;
    while (std::getline(rows, line)) ++count;
    CHECK(count == 3);
    const auto labelled = test::run_dtsim({"runs", "export", "--csv", "--db", db, "--where", "label=four nodes"});
    CHECK(labelled.exit_code == 0);
    CHECK_THAT(labelled.output, Catch::Contains("\n2,predicted,small,four nodes,allreduce/ring,"));
}

}  // namespace cli_outputs_test
