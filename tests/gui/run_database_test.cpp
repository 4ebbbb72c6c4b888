#include <catch2/catch.hpp>
#include <sqlite3.h>

#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "run_database.hpp"

namespace run_database_test {

using namespace dtsim;
using namespace dtsim::gui;

TEST_CASE("gui::RunDatabase: loads runs into span stores and keeps the latest few", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-db");
    test::write_test_database(dir.file("runs.db"));
    RunDatabase db(dir.file("runs.db"));
    REQUIRE(db.list().size() == 5);
    const auto first = db.load(1);
    REQUIRE(first);
    CHECK(first->run.spans.empty());  // moved into the store
    CHECK(first->store->span_count() == 4 * 3 * 3 + 2 * 3);
    CHECK(first->run.summary.gpus == 4);
    CHECK(db.load(1) == first);  // cached
    for (std::int64_t id = 2; id <= 5; ++id) REQUIRE(db.load(id));
    CHECK(db.load(1) != first);  // evicted by four newer runs, loaded again
    CHECK(db.load(5) != nullptr);
    CHECK(db.load(99) == nullptr);
    REQUIRE(db.load_full(2));
    CHECK(db.load_full(2)->spans.size() == 4 * 3 * 3 + 2 * 3);
    CHECK_THROWS_AS(RunDatabase(dir.file("missing.db")), StoreError);
}

TEST_CASE("gui::RunDatabase: a damaged row hides no other run", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-db-damaged");
    test::write_test_database(dir.file("runs.db"));
    sqlite3* handle = nullptr;
    REQUIRE(sqlite3_open(dir.file("runs.db").c_str(), &handle) == SQLITE_OK);
    // As older versions stored an infinity: JSON null where a number belongs.
    CHECK(sqlite3_exec(handle, "UPDATE runs SET summary_json = '{\"gpus\": 4, \"iteration_time_s\": null}' WHERE id = 2", nullptr,
                       nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(handle);
    RunDatabase db(dir.file("runs.db"));
    const auto runs = db.list();
    REQUIRE(runs.size() == 4);
    for (const auto& run : runs) CHECK(run.id != 2);
    CHECK(db.load(3));
}

}  // namespace run_database_test
