#include "run_database.hpp"

#include <algorithm>
#include <filesystem>

namespace dtsim::gui {

const std::string& RunDatabase::existing(const std::string& path) {
    // RunStore would create a missing file; the GUI only opens databases that exist.
    if (!std::filesystem::is_regular_file(path))
        throw StoreError(path + ": no runs database here (run `dtsim simulate SCENARIO --db " + path + "` to create one)");
    return path;
}

RunDatabase::RunDatabase(const std::string& path) : m_path(path), m_store(existing(path)) {
    m_store.list();  // a damaged file opens but cannot be read: fail now, not in a view
}

std::shared_ptr<const LoadedRun> RunDatabase::load(std::int64_t id) {
    auto cached = std::find_if(m_cache.begin(), m_cache.end(), [id](const auto& entry) { return entry.first == id; });
    if (cached != m_cache.end()) {
        auto loaded = cached->second;
        m_cache.erase(cached);
        m_cache.emplace_back(id, loaded);
        return loaded;
    }
    auto run = m_store.load(id);
    if (!run) return nullptr;
    auto loaded = std::make_shared<LoadedRun>();
    loaded->store = std::make_shared<const SpanStore>(SpanStore::fromRun(*run));
    run->spans.clear();
    run->spans.shrink_to_fit();
    loaded->run = std::move(*run);
    if (m_cache.size() == kCachedRuns) m_cache.erase(m_cache.begin());
    m_cache.emplace_back(id, loaded);
    return loaded;
}

}  // namespace dtsim::gui
