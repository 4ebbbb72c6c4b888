#pragma once
// The GUI's handle on a runs database: lists runs and loads one run's timeline into a span store
// (the latest few cached, since switching views re-reads the same runs). Qt-free.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dtsim/run_store.hpp"
#include "span_store.hpp"

namespace dtsim::gui {

/// A run as the views need it: its header and summary (spans moved into the store).
struct LoadedRun {
    Run run;  // run.spans is empty
    std::shared_ptr<const SpanStore> store;
    std::vector<int> pipeline_stages;  // per store slot; empty without an LLM layout (pipeline_stages.hpp)
};

class RunDatabase {
public:
    /// Throws StoreError with a message for people when the file is missing or not a runs database.
    explicit RunDatabase(const std::string& path);
    const std::string& path() const { return path_; }
    std::vector<RunListEntry> list() const { return store_.list(); }
    /// nullptr when there is no such run.
    std::shared_ptr<const LoadedRun> load(std::int64_t id);
    /// The full run, spans included (for export).
    std::optional<Run> load_full(std::int64_t id) const { return store_.load(id); }

private:
    static const std::string& existing(const std::string& path);
    std::string path_;
    RunStore store_;
    static constexpr size_t kCachedRuns = 4;  // large runs take hundreds of MB: keep the latest few
    std::vector<std::pair<std::int64_t, std::shared_ptr<const LoadedRun>>> cache_;  // most recent last
};

}  // namespace dtsim::gui
