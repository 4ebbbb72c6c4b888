#include "dtsim/run_store.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <stdexcept>

#include "dtsim/run_json.hpp"
#include "dtsim/utf8_text.hpp"

namespace dtsim {
namespace {

void warn_unreadable(const std::string& path, std::int64_t id, const std::string& why) {
    std::cerr << "dtsim: warning: " << path << ": run " << id << " cannot be read (" << printable_text(why) << "); skipped\n";
}

// A prepared statement that finalizes itself.
class Statement {
public:
    Statement(sqlite3* db, const char* sql, const std::string& path) {
        if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
            throw StoreError(path + ": " + sqlite3_errmsg(db));
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    void bind(int i, std::int64_t v) { sqlite3_bind_int64(stmt_, i, v); }
    void bind(int i, int v) { sqlite3_bind_int(stmt_, i, v); }
    void bind(int i, double v) { sqlite3_bind_double(stmt_, i, v); }
    void bind(int i, const std::string& v) { sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT); }
    int step() { return sqlite3_step(stmt_); }
    void reset() {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }
    std::int64_t int64(int col) const { return sqlite3_column_int64(stmt_, col); }
    int integer(int col) const { return sqlite3_column_int(stmt_, col); }
    double real(int col) const { return sqlite3_column_double(stmt_, col); }
    std::string text(int col) const {
        auto* p = sqlite3_column_text(stmt_, col);
        return p ? reinterpret_cast<const char*>(p) : "";
    }

private:
    sqlite3_stmt* stmt_ = nullptr;
};

std::string now_iso8601() {
    auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buffer;
}

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  scenario_name TEXT NOT NULL,
  scenario_hash TEXT NOT NULL,
  scenario_text TEXT NOT NULL,
  strategy TEXT NOT NULL,
  gpus INTEGER NOT NULL,
  iteration_time_s REAL NOT NULL,
  summary_json TEXT NOT NULL,
  created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS iterations (
  run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, time_s REAL NOT NULL,
  PRIMARY KEY (run_id, idx));
CREATE TABLE IF NOT EXISTS ranks (
  run_id INTEGER NOT NULL REFERENCES runs(id), rank INTEGER NOT NULL, node INTEGER NOT NULL, label TEXT NOT NULL,
  PRIMARY KEY (run_id, rank));
CREATE TABLE IF NOT EXISTS spans (
  run_id INTEGER NOT NULL REFERENCES runs(id), rank INTEGER NOT NULL, lane TEXT NOT NULL, name TEXT NOT NULL,
  iteration INTEGER NOT NULL, idx INTEGER NOT NULL, start_s REAL NOT NULL, end_s REAL NOT NULL, bytes REAL NOT NULL);
CREATE INDEX IF NOT EXISTS spans_by_run ON spans(run_id, rank, start_s);
)sql";

// Version 2 added calibrated profiles; a version-1 database gains the table when opened.
constexpr const char* kProfilesTable = R"sql(
CREATE TABLE IF NOT EXISTS profiles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  source TEXT NOT NULL,
  profile_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);
)sql";

// Version 3 added the large-model metrics as columns, for queries (the summary JSON stays the record);
// runs stored before read as fitting, with no tokens, MFU or memory estimate.
constexpr const char* kLlmColumns = R"sql(
ALTER TABLE runs ADD COLUMN tokens_per_s REAL NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN model_flops_utilisation REAL NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN memory_per_gpu_bytes REAL NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN fits INTEGER NOT NULL DEFAULT 1;
)sql";

// Version 4 added what tells runs apart: the --set overrides (a JSON object of key to value) and --label;
// runs stored before read as having neither.
constexpr const char* kOverrideColumns = R"sql(
ALTER TABLE runs ADD COLUMN overrides_json TEXT NOT NULL DEFAULT '{}';
ALTER TABLE runs ADD COLUMN label TEXT NOT NULL DEFAULT '';
)sql";

sqlite3* open_database(const std::string& name, int flags, const std::string& path) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(name.c_str(), &db, flags, nullptr) != SQLITE_OK) {
        std::string message = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        throw StoreError(path + ": cannot open runs database: " + message);
    }
    return db;
}

// Whether the database's schema can be read on this connection.
bool can_read(sqlite3* db) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &stmt, nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    return rc == SQLITE_ROW;
}

// The URI that opens `path` read-only as a file nobody changes (RFC 3986 percent-encoding of the path).
std::string immutable_uri(const std::string& path) {
    std::string uri = "file:";
    for (const unsigned char c : std::filesystem::absolute(path).string()) {
        if (std::isalnum(c) || std::strchr("/-._~", c)) {
            uri += static_cast<char>(c);
        } else {
            char escaped[4];
            std::snprintf(escaped, sizeof escaped, "%%%02X", c);
            uri += escaped;
        }
    }
    return uri + "?immutable=1";
}

std::string overrides_json(const std::map<std::string, std::string>& overrides) { return nlohmann::json(overrides).dump(); }

std::map<std::string, std::string> overrides_from_json(const std::string& text) {
    return nlohmann::json::parse(text).get<std::map<std::string, std::string>>();
}

}  // namespace

RunStore::RunStore(const std::string& path, int busy_timeout_ms) : path_(path) { open_for_writing(busy_timeout_ms); }

RunStore RunStore::for_reading(const std::string& path) { return RunStore(path, ReadOnly{}); }

RunStore::RunStore(const std::string& path, ReadOnly) : path_(path) {
    db_ = open_database(path, SQLITE_OPEN_READONLY, path);
    if (!can_read(db_)) {
        // A WAL database needs its shared-memory file beside it; where none is there and none can be made (a
        // folder this process cannot write), SQLite reads it only as unchanging.
        sqlite3_close(db_);
        db_ = open_database(immutable_uri(path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, path);
    }
    sqlite3_busy_timeout(db_, kDefaultBusyTimeoutMs);
    int found = 0;
    try {
        if (!can_read(db_)) fail("cannot read the database");  // names a file that is not SQLite as such
        found = has_schema() ? schema_version() : 0;
        if (found == 0) throw StoreError(path_ + ": not a dtsim runs database (it has no schema version)");
        if (found > kSchemaVersion) check_schema_version(found);
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
    if (found < kSchemaVersion) {
        // An older database is brought up to date first, which takes writing it.
        sqlite3_close(db_);
        db_ = nullptr;
        open_for_writing(kDefaultBusyTimeoutMs);
    }
}

void RunStore::open_for_writing(int busy_timeout_ms) {
    db_ = open_database(path_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, path_);
    sqlite3_busy_timeout(db_, busy_timeout_ms);
    try {
        exec("PRAGMA journal_mode=WAL");
        exec("PRAGMA foreign_keys=ON");
        create_schema();
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

RunStore::~RunStore() { sqlite3_close(db_); }

void RunStore::fail(const std::string& what) const {
    const int code = sqlite3_errcode(db_);
    std::string message = path_ + ": " + what + ": " + sqlite3_errmsg(db_);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
        message = path_ + ": the runs database is locked by another writer and stayed locked past the timeout; "
                          "nothing was written, try again";
    else if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
        message = path_ + ": not a dtsim runs database (or it is damaged): " + sqlite3_errmsg(db_);
    throw StoreError(message);
}

void RunStore::exec(const char* sql) const {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        sqlite3_free(error);
        fail("SQL failed");
    }
}

bool RunStore::has_schema() const {
    // Its own statement, finished on return: an unfinished one would hold a read snapshot that a later write
    // cannot upgrade.
    Statement existing(db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'", path_);
    if (existing.step() != SQLITE_ROW) fail("cannot read the database schema");
    return existing.integer(0) > 0;
}

void RunStore::create_schema() {
    // An existing database only needs its version read, which takes no write lock: opening for writing
    // works while another process is writing.
    bool schema_exists = has_schema();
    if (!schema_exists) {
        exec("BEGIN IMMEDIATE");
        try {
            exec(kSchema);
            {
                // Another process may have created the schema between our check and our write lock.
                Statement count(db_, "SELECT count(*) FROM schema_version", path_);
                schema_exists = count.step() == SQLITE_ROW && count.integer(0) > 0;
            }
            if (!schema_exists) {
                exec(kProfilesTable);
                exec(kLlmColumns);
                exec(kOverrideColumns);
                Statement insert(db_, "INSERT INTO schema_version(version) VALUES (?)", path_);
                insert.bind(1, kSchemaVersion);
                if (insert.step() != SQLITE_DONE) fail("cannot write schema version");
            }
            exec("COMMIT");
        } catch (...) {
            sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    }
    int found = schema_version();
    if (found >= 1 && found < kSchemaVersion) {
        migrate();
        found = kSchemaVersion;
    }
    check_schema_version(found);
}

void RunStore::check_schema_version(int found) const {
    if (found != kSchemaVersion)
        throw StoreError(path_ + ": runs database has schema version " + std::to_string(found) + ", this dtsim reads version " +
                         std::to_string(kSchemaVersion) + (found > kSchemaVersion ? " (the database is newer than this dtsim)" : ""));
}

int RunStore::schema_version() const {
    Statement version(db_, "SELECT version FROM schema_version", path_);
    if (version.step() != SQLITE_ROW) fail("the database has no schema version");
    return version.integer(0);
}

void RunStore::migrate() {
    exec("BEGIN IMMEDIATE");
    try {
        // Read again under the write lock: another process may have migrated since.
        const int found = schema_version();
        if (found < 2) exec(kProfilesTable);
        if (found < 3) exec(kLlmColumns);
        if (found < 4) exec(kOverrideColumns);
        exec(("UPDATE schema_version SET version = " + std::to_string(kSchemaVersion)).c_str());
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

std::int64_t RunStore::append_profile(const std::string& name, const std::string& source, const std::string& profile_json) {
    Statement insert(db_, "INSERT INTO profiles(name, source, profile_json, created_at) VALUES (?,?,?,?)", path_);
    insert.bind(1, name);
    insert.bind(2, source);
    insert.bind(3, profile_json);
    insert.bind(4, now_iso8601());
    if (insert.step() != SQLITE_DONE) fail("cannot insert profile");
    return sqlite3_last_insert_rowid(db_);
}

std::optional<std::string> RunStore::load_profile_json(std::int64_t id) const {
    Statement select(db_, "SELECT profile_json FROM profiles WHERE id = ?", path_);
    select.bind(1, id);
    if (select.step() != SQLITE_ROW) return std::nullopt;
    return select.text(0);
}

std::vector<ProfileListEntry> RunStore::list_profiles() const {
    Statement select(db_, "SELECT id, name, source, created_at FROM profiles ORDER BY id", path_);
    std::vector<ProfileListEntry> out;
    while (select.step() == SQLITE_ROW) out.push_back({select.int64(0), select.text(1), select.text(2), select.text(3)});
    return out;
}

std::int64_t RunStore::append(Run& run) {
    require_finite(run);
    if (run.created_at.empty()) run.created_at = now_iso8601();
    exec("BEGIN IMMEDIATE");
    try {
        Statement insert(db_,
                         "INSERT INTO runs(kind, scenario_name, scenario_hash, scenario_text, strategy, gpus, "
                         "iteration_time_s, summary_json, created_at, tokens_per_s, model_flops_utilisation, "
                         "memory_per_gpu_bytes, fits, overrides_json, label) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                         path_);
        insert.bind(1, to_string(run.kind));
        insert.bind(2, run.scenario_name);
        insert.bind(3, run.scenario_hash);
        insert.bind(4, run.scenario_text);
        insert.bind(5, run.strategy);
        insert.bind(6, run.summary.gpus);
        insert.bind(7, run.summary.iteration_time_s);
        insert.bind(8, summary_to_json(run.summary).dump());
        insert.bind(9, run.created_at);
        insert.bind(10, run.summary.tokens_per_s);
        insert.bind(11, run.summary.model_flops_utilisation);
        insert.bind(12, run.summary.memory_per_gpu_bytes);
        insert.bind(13, run.summary.fits ? 1 : 0);
        insert.bind(14, overrides_json(run.overrides));
        insert.bind(15, run.label);
        if (insert.step() != SQLITE_DONE) fail("cannot insert run");
        const std::int64_t id = sqlite3_last_insert_rowid(db_);

        Statement iteration(db_, "INSERT INTO iterations(run_id, idx, time_s) VALUES (?,?,?)", path_);
        for (const auto& it : run.iterations) {
            iteration.bind(1, id);
            iteration.bind(2, it.index);
            iteration.bind(3, it.time_s);
            if (iteration.step() != SQLITE_DONE) fail("cannot insert iteration");
            iteration.reset();
        }
        Statement rank(db_, "INSERT INTO ranks(run_id, rank, node, label) VALUES (?,?,?,?)", path_);
        for (const auto& r : run.ranks) {
            rank.bind(1, id);
            rank.bind(2, r.rank);
            rank.bind(3, r.node);
            rank.bind(4, r.label);
            if (rank.step() != SQLITE_DONE) fail("cannot insert rank");
            rank.reset();
        }
        Statement span(db_,
                       "INSERT INTO spans(run_id, rank, lane, name, iteration, idx, start_s, end_s, bytes) "
                       "VALUES (?,?,?,?,?,?,?,?,?)",
                       path_);
        for (const auto& s : run.spans) {
            span.bind(1, id);
            span.bind(2, s.rank);
            span.bind(3, to_string(s.lane));
            span.bind(4, s.name);
            span.bind(5, s.iteration);
            span.bind(6, s.index);
            span.bind(7, s.start_s);
            span.bind(8, s.end_s);
            span.bind(9, s.bytes);
            if (span.step() != SQLITE_DONE) fail("cannot insert span");
            span.reset();
        }
        exec("COMMIT");
        run.id = id;
        return id;
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

std::optional<Run> RunStore::load(std::int64_t id) const {
    Statement head(db_,
                   "SELECT kind, scenario_name, scenario_hash, scenario_text, strategy, summary_json, created_at, "
                   "overrides_json, label FROM runs WHERE id = ?",
                   path_);
    head.bind(1, id);
    const int rc = head.step();
    if (rc == SQLITE_DONE) return std::nullopt;
    if (rc != SQLITE_ROW) fail("cannot read run");
    Run run;
    run.id = id;
    run.kind = run_kind_from_string(head.text(0));
    run.scenario_name = head.text(1);
    run.scenario_hash = head.text(2);
    run.scenario_text = head.text(3);
    run.strategy = head.text(4);
    try {
        run.summary = summary_from_json(nlohmann::json::parse(head.text(5)));
        run.overrides = overrides_from_json(head.text(7));
    } catch (const nlohmann::json::exception& e) {
        throw StoreError(path_ + ": run " + std::to_string(id) + " cannot be read (" + e.what() + ")");
    }
    run.created_at = head.text(6);
    run.label = head.text(8);

    Statement iterations(db_, "SELECT idx, time_s FROM iterations WHERE run_id = ? ORDER BY idx", path_);
    iterations.bind(1, id);
    while (iterations.step() == SQLITE_ROW) run.iterations.push_back({iterations.integer(0), iterations.real(1)});

    Statement ranks(db_, "SELECT rank, node, label FROM ranks WHERE run_id = ? ORDER BY rank", path_);
    ranks.bind(1, id);
    while (ranks.step() == SQLITE_ROW) run.ranks.push_back({ranks.integer(0), ranks.integer(1), ranks.text(2)});

    Statement spans(db_,
                    "SELECT rank, lane, name, iteration, idx, start_s, end_s, bytes FROM spans WHERE run_id = ? "
                    "ORDER BY rowid",
                    path_);
    spans.bind(1, id);
    while (spans.step() == SQLITE_ROW)
        run.spans.push_back(Span{spans.integer(0), lane_from_string(spans.text(1)), spans.text(2), spans.integer(3),
                                 spans.integer(4), spans.real(5), spans.real(6), spans.real(7)});
    return run;
}

std::vector<RunListEntry> RunStore::list() const {
    Statement query(db_,
                    "SELECT id, kind, scenario_name, strategy, gpus, iteration_time_s, created_at, scenario_text, summary_json, "
                    "overrides_json, label FROM runs ORDER BY id",
                    path_);
    std::vector<RunListEntry> entries;
    int rc;
    while ((rc = query.step()) == SQLITE_ROW) {
        // One damaged row must not hide the others: it is skipped, and said so.
        try {
            entries.push_back({query.int64(0), run_kind_from_string(query.text(1)), query.text(2), query.text(3),
                               query.integer(4), query.real(5), query.text(6), query.text(7),
                               summary_from_json(nlohmann::json::parse(query.text(8))), overrides_from_json(query.text(9)),
                               query.text(10)});
        } catch (const nlohmann::json::exception& e) {
            warn_unreadable(path_, query.int64(0), e.what());
        } catch (const std::invalid_argument& e) {
            warn_unreadable(path_, query.int64(0), e.what());
        }
    }
    if (rc != SQLITE_DONE) fail("cannot list runs");
    return entries;
}

}  // namespace dtsim
