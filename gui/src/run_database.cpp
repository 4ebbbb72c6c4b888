#include "run_database.hpp"

#include <algorithm>
#include <filesystem>

#include "pipeline_stages.hpp"

namespace dtsim::gui {

const std::string& RunDatabase::existing(const std::string& path) {
    // A missing file is named here, with how to make one. The GUI only reads: the runs it adds are the dtsim
    // child's, so the database may be in a folder the GUI cannot write.
    if (!std::filesystem::is_regular_file(path))
        throw StoreError(path + ": no runs database here (run `dtsim simulate SCENARIO --db " + path + "` to create one)");
    return path;
}

RunDatabase::RunDatabase(const std::string& path) : path_(path), store_(RunStore::for_reading(existing(path))) {
    store_.list();  // a damaged file opens but cannot be read: fail now, not in a view
}

std::shared_ptr<const LoadedRun> RunDatabase::load(std::int64_t id) {
    auto cached = std::find_if(cache_.begin(), cache_.end(), [id](const auto& entry) { return entry.first == id; });
    if (cached != cache_.end()) {
        auto loaded = cached->second;
        cache_.erase(cached);
        cache_.emplace_back(id, loaded);
        return loaded;
    }
    auto run = store_.load(id);
    if (!run) return nullptr;
    auto loaded = std::make_shared<LoadedRun>();
    loaded->store = std::make_shared<const SpanStore>(SpanStore::from_run(*run));
    loaded->pipeline_stages = pipeline_stages(*run, *loaded->store);
    run->spans.clear();
    run->spans.shrink_to_fit();
    loaded->run = std::move(*run);
    if (cache_.size() == kCachedRuns) cache_.erase(cache_.begin());
    cache_.emplace_back(id, loaded);
    return loaded;
}

}  // namespace dtsim::gui
