#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "dtsim/run_json.hpp"
#include "dtsim/run_outputs.hpp"
#include "dtsim/run_store.hpp"
#include "test_support.hpp"

using namespace dtsim;

namespace {

Run sample_run(const std::string& name, int spans) {
    Run run;
    run.scenario_name = name;
    run.scenario_hash = "0123456789abcdef";
    run.scenario_text = "name: " + name + "\n";
    run.strategy = "allreduce/ring";
    run.summary.gpus = 4;
    run.summary.iteration_time_s = 0.125;
    run.summary.speedup = 3.5;
    run.summary.lost_work_s = 1.25;
    run.summary.restart_s = 30;
    run.summary.checkpoint_s = 4;
    run.iterations = {{0, 0.2}, {1, 0.125}};
    run.ranks = {{0, 0, "gpu 0"}, {1, 0, "gpu 1"}};
    for (int i = 0; i < spans; ++i)
        run.spans.push_back(Span{i % 2, i % 3 == 0 ? Lane::comm : Lane::compute, "forward", 1, i, 0.1 * i, 0.1 * i + 0.05, 1e6 * i});
    return run;
}

}  // namespace

TEST_CASE("runs are appended with ids from 1 and read back equal", "[unit][store]") {
    test::TempDir dir;
    RunStore store(dir.file("runs.db"));
    auto first = sample_run("a", 10);
    auto second = sample_run("b", 7);
    second.kind = RunKind::measured;
    CHECK(store.append(first) == 1);
    CHECK(store.append(second) == 2);
    auto loaded = store.load(2);
    REQUIRE(loaded);
    CHECK(*loaded == second);
    CHECK(*store.load(1) == first);
    CHECK_FALSE(store.load(3));
    const auto list = store.list();
    REQUIRE(list.size() == 2);
    CHECK(list[1].kind == RunKind::measured);
    CHECK(list[0].scenario_name == "a");
}

TEST_CASE("a summary's fault fields round-trip through JSON and read as 0 from older runs", "[unit][store]") {
    const auto run = sample_run("faults", 0);
    const auto json = nlohmann::json::parse(summary_to_json(run.summary).dump());
    CHECK(summary_from_json(json) == run.summary);
    auto older = json;
    for (const auto* key : {"lost_work_s", "restart_s", "checkpoint_s"}) older.erase(key);
    const auto read = summary_from_json(older);
    CHECK(read.lost_work_s == 0);
    CHECK(read.restart_s == 0);
    CHECK(read.checkpoint_s == 0);
    CHECK(read.iteration_time_s == run.summary.iteration_time_s);
}

TEST_CASE("a writer that finds the database locked fails cleanly and corrupts nothing", "[unit][store]") {
    test::TempDir dir;
    const auto path = dir.file("runs.db");
    {
        RunStore store(path);
        auto run = sample_run("kept", 3);
        store.append(run);
    }
    sqlite3* blocker = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &blocker) == SQLITE_OK);
    REQUIRE(sqlite3_exec(blocker, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr) == SQLITE_OK);
    {
        RunStore waiting(path, 200);
        auto run = sample_run("blocked", 3);
        try {
            waiting.append(run);
            FAIL("append succeeded while the database was locked");
        } catch (const StoreError& e) {
            CHECK_THAT(e.what(), Catch::Contains("locked"));
            CHECK_THAT(e.what(), Catch::Contains(path));
        }
    }
    sqlite3_exec(blocker, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(blocker);
    RunStore store(path);
    REQUIRE(store.list().size() == 1);
    auto run = sample_run("after", 3);
    CHECK(store.append(run) == 2);
}

TEST_CASE("a file that is not a runs database is refused with its name", "[unit][store]") {
    test::TempDir dir;
    const auto path = dir.file("not-a-db.db");
    std::ofstream(path) << "this is not sqlite, just text that is long enough to have a header............";
    try {
        RunStore store(path);
        FAIL("opened a non-database");
    } catch (const StoreError& e) {
        CHECK_THAT(e.what(), Catch::Contains(path));
    }
}

TEST_CASE("a non-finite run is never written or stored, and a damaged row hides no other run", "[unit][store]") {
    test::TempDir dir;
    const auto path = dir.file("runs.db");
    RunStore store(path);
    auto first = sample_run("first", 3);
    REQUIRE(store.append(first) == 1);

    auto infinite = sample_run("infinite", 3);
    infinite.summary.iteration_time_s = std::numeric_limits<double>::infinity();
    CHECK_THROWS_AS(store.append(infinite), NonFiniteResult);
    auto nan_span = sample_run("nan", 3);
    nan_span.spans[1].end_s = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(store.append(nan_span), Catch::Contains("span 'forward' of rank 1"));
    CHECK(store.list().size() == 1);
    // Nothing is written either: the JSON output is refused before it is opened.
    CHECK_THROWS_AS(write_run_outputs(infinite, RunOutputs{dir.file("run.json"), "", ""}), NonFiniteResult);
    CHECK_FALSE(std::filesystem::exists(dir.file("run.json")));

    // A row damaged as older versions stored infinities (JSON null) is skipped by the list, not fatal to it.
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "UPDATE runs SET summary_json = '{\"gpus\": 4, \"iteration_time_s\": null}' WHERE id = 1",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    auto second = sample_run("second", 2);
    REQUIRE(store.append(second) == 2);
    const auto list = store.list();
    REQUIRE(list.size() == 1);
    CHECK(list[0].scenario_name == "second");
    CHECK_THROWS_WITH(store.load(1), Catch::Contains("run 1 cannot be read"));
    CHECK(*store.load(2) == second);
}
