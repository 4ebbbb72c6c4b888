#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "dtsim/run_json.hpp"
#include "dtsim/run_outputs.hpp"
#include "dtsim/run_store.hpp"
#include "test_support.hpp"

namespace run_store_test {

using namespace dtsim;

namespace {

Run sample_run(const std::string& name, int spans) {
    Run run;
    run.scenario_name = name;
    run.scenario_hash = "0123456789abcdef";
    run.scenario_text = "name: " + name + "\n";
    run.strategy = "allreduce/ring";
    run.overrides = {{"cluster.nodes", "8"}, {"training.strategy", "{kind: allreduce, algorithm: tree}"}};
    run.label = "baseline, \"tree\"";
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

// The rows of a query on the database at `path`, every column read as a number.
std::vector<std::vector<double>> query(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_stmt* statement = nullptr;
    std::vector<std::vector<double>> rows;
    if (sqlite3_open(path.c_str(), &db) == SQLITE_OK && sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK)
        while (sqlite3_step(statement) == SQLITE_ROW) {
            rows.emplace_back();
            for (int c = 0; c < sqlite3_column_count(statement); ++c) rows.back().push_back(sqlite3_column_double(statement, c));
        }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return rows;
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
    CHECK(list[0].overrides == first.overrides);
    CHECK(list[0].label == first.label);
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

TEST_CASE("a database opened for reading is never created or written", "[unit][store]") {
    test::TempDir dir;
    const auto missing = dir.file("missing.db");
    CHECK_THROWS_AS(RunStore::for_reading(missing), StoreError);
    CHECK_FALSE(std::filesystem::exists(missing));

    const auto text = dir.file("notes.txt");
    std::ofstream(text) << "this is not sqlite, just text that is long enough to have a header............";
    CHECK_THROWS_WITH(RunStore::for_reading(text), Catch::Contains(text));

    // An SQLite file without dtsim's tables is not a runs database, and stays without them.
    const auto empty = dir.file("empty.db");
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(empty.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "CREATE TABLE other (x INTEGER)", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    CHECK_THROWS_WITH(RunStore::for_reading(empty), Catch::Contains(empty + ": not a dtsim runs database"));
    CHECK(query(empty, "SELECT count(*) FROM sqlite_master WHERE name = 'runs'") == std::vector<std::vector<double>>{{0}});

    const auto path = dir.file("runs.db");
    auto run = sample_run("stored", 3);
    RunStore(path).append(run);
    const auto reader = RunStore::for_reading(path);
    REQUIRE(reader.list().size() == 1);
    CHECK(*reader.load(1) == run);
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

TEST_CASE("a summary's large-model fields round-trip and read as absent from older runs", "[unit][store]") {
    test::TempDir dir;
    auto run = sample_run("llm", 3);
    run.strategy = "tp8 pp4 dp16 1f1b zero1";
    // Every large-model field gets a value of its own, written and read back.
    auto json = summary_to_json(run.summary);
    const char* keys[] = {"tokens_per_s", "model_flops_utilisation", "hardware_flops_utilisation", "tflops_per_gpu", "bubble_fraction",
                          "exposed_tp_s", "exposed_cp_s", "exposed_pp_s", "exposed_dp_s", "exposed_ep_s", "memory_per_gpu_bytes",
                          "memory_capacity_bytes"};
    double value = 0;
    for (const auto* key : keys) json[key] = value += 1.5;
    json["fits"] = false;
    run.summary = summary_from_json(json);
    CHECK(summary_to_json(run.summary) == json);
    CHECK(run.summary.exposed_ep_s == 15);
    CHECK_FALSE(run.summary.fits);
    {
        RunStore store(dir.file("runs.db"));
        store.append(run);
        CHECK(*store.load(run.id) == run);
    }
    CHECK(query(dir.file("runs.db"), "SELECT tokens_per_s, model_flops_utilisation, memory_per_gpu_bytes, fits FROM runs") ==
          std::vector<std::vector<double>>{{1.5, 3, 16.5, 0}});

    auto older = json;
    for (const auto* key : {"tokens_per_s", "model_flops_utilisation", "memory_per_gpu_bytes", "memory_capacity_bytes", "fits"})
        older.erase(key);
    const auto read = summary_from_json(older);
    CHECK(read.tokens_per_s == 0);
    CHECK(read.fits);
    CHECK_FALSE(read.has_memory_estimate());
}

TEST_CASE("a database of schema version 2 opens with every run and gains the large-model columns", "[unit][store]") {
    test::TempDir dir;
    const auto path = dir.file("old.db");
    // The tables as dtsim wrote them before version 3, with one run in them.
    auto old_summary = summary_to_json(sample_run("old", 0).summary);
    for (const auto* key : {"tokens_per_s", "model_flops_utilisation", "hardware_flops_utilisation", "tflops_per_gpu",
                            "bubble_fraction", "memory_per_gpu_bytes", "memory_capacity_bytes", "fits"})
        old_summary.erase(key);
    const std::string version_2 =
        "CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (2);"
        "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, scenario_name TEXT NOT NULL, "
        "scenario_hash TEXT NOT NULL, scenario_text TEXT NOT NULL, strategy TEXT NOT NULL, gpus INTEGER NOT NULL, "
        "iteration_time_s REAL NOT NULL, summary_json TEXT NOT NULL, created_at TEXT NOT NULL);"
        "CREATE TABLE iterations (run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, time_s REAL NOT NULL, PRIMARY KEY (run_id, idx));"
        "CREATE TABLE ranks (run_id INTEGER NOT NULL REFERENCES runs(id), rank INTEGER NOT NULL, node INTEGER NOT NULL, label TEXT NOT NULL, PRIMARY KEY (run_id, rank));"
        "CREATE TABLE spans (run_id INTEGER NOT NULL REFERENCES runs(id), rank INTEGER NOT NULL, lane TEXT NOT NULL, name TEXT NOT NULL, "
        "iteration INTEGER NOT NULL, idx INTEGER NOT NULL, start_s REAL NOT NULL, end_s REAL NOT NULL, bytes REAL NOT NULL);"
        "CREATE TABLE profiles (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, source TEXT NOT NULL, profile_json TEXT NOT NULL, created_at TEXT NOT NULL);"
        "INSERT INTO runs VALUES (1, 'predicted', 'old', 'h', 'name: old', 'allreduce/ring', 4, 0.125, '" + old_summary.dump() +
        "', '2026-01-01T00:00:00Z');"
        "INSERT INTO iterations VALUES (1, 0, 0.2), (1, 1, 0.125);"
        "INSERT INTO spans VALUES (1, 0, 'compute', 'forward', 1, 0, 0.0, 0.05, 0);";
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, version_2.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);

    {
        RunStore store(path);
        const auto old = store.load(1);
        REQUIRE(old);
        CHECK(old->scenario_name == "old");
        CHECK(old->summary.iteration_time_s == 0.125);
        CHECK(old->summary.fits);
        CHECK_FALSE(old->summary.has_memory_estimate());
        CHECK(old->iterations.size() == 2);
        CHECK(old->spans.size() == 1);
        auto fresh = sample_run("new", 1);
        fresh.summary.memory_capacity_bytes = 80e9;
        fresh.summary.memory_per_gpu_bytes = 90e9;
        fresh.summary.fits = false;
        CHECK(store.append(fresh) == 2);
        CHECK(store.list().size() == 2);
    }
    RunStore reopened(path);  // now at version 3: no second migration
    REQUIRE(reopened.list().size() == 2);
    CHECK_FALSE(reopened.load(2)->summary.fits);
    // The old run keeps the columns' defaults.
    CHECK(query(path, "SELECT fits, memory_per_gpu_bytes FROM runs ORDER BY id") == std::vector<std::vector<double>>{{1, 0}, {0, 90e9}});
    CHECK(query(path, "SELECT version FROM schema_version") == std::vector<std::vector<double>>{{RunStore::kSchemaVersion}});
}

TEST_CASE("a database of schema version 3 opens with every run and gains overrides and labels", "[unit][store]") {
    test::TempDir dir;
    const auto path = dir.file("v3.db");
    auto old = sample_run("old", 2);
    {
        RunStore store(path);
        store.append(old);
    }
    // Back to version 3 as dtsim wrote it: no override or label columns.
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db,
                         "ALTER TABLE runs DROP COLUMN overrides_json; ALTER TABLE runs DROP COLUMN label; "
                         "UPDATE schema_version SET version = 3;",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);

    {
        RunStore store(path);
        const auto loaded = store.load(1);
        REQUIRE(loaded);
        CHECK(loaded->overrides.empty());
        CHECK(loaded->label.empty());
        CHECK(loaded->spans == old.spans);
        auto fresh = sample_run("new", 1);
        CHECK(store.append(fresh) == 2);
    }
    RunStore reopened(path);
    const auto list = reopened.list();
    REQUIRE(list.size() == 2);
    CHECK(list[0].overrides.empty());
    CHECK(list[1].overrides.at("cluster.nodes") == "8");
    CHECK(list[1].label == "baseline, \"tree\"");
    CHECK(query(path, "SELECT version FROM schema_version") == std::vector<std::vector<double>>{{RunStore::kSchemaVersion}});
}

}  // namespace run_store_test
