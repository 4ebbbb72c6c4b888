#pragma once
// Runs named by their id in the runs database, on the command line (`runs show ID`, `compare ID ID`).
#include <cstdint>
#include <string>

#include "dtsim/run.hpp"
#include "dtsim/run_store.hpp"

namespace dtsim::cli {

/// Whether `text` is written as a run id (digits only), not a file name.
bool looks_like_run_id(const std::string& text);

/// The run id `text` spells: a whole number from 1 to the largest SQLite gives (2^63 - 1). InputError
/// otherwise ("", "0", "-1", "1e3", a number past the largest).
std::int64_t parse_run_id(const std::string& text);

/// The stored run with this id; InputError naming the database when there is none.
Run load_stored_run(const RunStore& store, const std::string& db_path, std::int64_t id);

}  // namespace dtsim::cli
