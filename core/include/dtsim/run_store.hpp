#pragma once
// The runs database (SQLite, WAL): every run, measured or predicted, with its scenario, summary,
// iterations and per-rank spans. One transaction per run; a writer that finds the database locked
// waits up to `busy_timeout_ms` and then fails with a StoreError, never corrupting it.
#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtsim/run.hpp"

namespace dtsim {

class StoreError : public std::runtime_error {
public:
    explicit StoreError(const std::string& message) : std::runtime_error(message) {}
};

struct RunListEntry {
    std::int64_t id = 0;
    RunKind kind = RunKind::predicted;
    std::string scenario_name;
    std::string strategy;
    int gpus = 0;
    double iteration_time_s = 0;
    std::string created_at;
    std::string scenario_text;  // canonical YAML, for grouping runs into scaling series
    RunSummary summary;
    std::map<std::string, std::string> overrides;  // --set key -> value
    std::string label;
};

struct ProfileListEntry {
    std::int64_t id = 0;
    std::string name;
    std::string source;
    std::string created_at;
};

class RunStore {
public:
    static constexpr int kSchemaVersion = 4;

    static constexpr int kDefaultBusyTimeoutMs = 10000;

    /// Opens the database for reading and writing, creating it when missing.
    explicit RunStore(const std::string& path, int busy_timeout_ms = kDefaultBusyTimeoutMs);
    /// Opens an existing database for reading: it can be in a folder, or be a file, that this process cannot
    /// write. A database of an older schema is upgraded first, which takes writing it.
    static RunStore for_reading(const std::string& path);
    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    /// Appends a run and returns its id (1, 2, ... in a new database). Sets run.created_at when empty.
    std::int64_t append(Run& run);
    std::optional<Run> load(std::int64_t id) const;
    std::vector<RunListEntry> list() const;

    /// Calibrated profiles (`dtsim fit --db`), kept as their versioned JSON text.
    std::int64_t append_profile(const std::string& name, const std::string& source, const std::string& profile_json);
    std::optional<std::string> load_profile_json(std::int64_t id) const;
    std::vector<ProfileListEntry> list_profiles() const;

private:
    struct ReadOnly {};
    RunStore(const std::string& path, ReadOnly);
    void open_for_writing(int busy_timeout_ms);

    void exec(const char* sql) const;
    bool has_schema() const;
    void create_schema();
    int schema_version() const;
    void check_schema_version(int found) const;
    /// Brings a database of an older schema version to this one, keeping every run.
    void migrate();
    [[noreturn]] void fail(const std::string& what) const;

    std::string path_;
    sqlite3* db_ = nullptr;
};

}  // namespace dtsim
