#include "run_database.hpp"

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
    if (auto it = m_cache.find(id); it != m_cache.end()) return it->second;
    auto run = m_store.load(id);
    if (!run) return nullptr;
    auto loaded = std::make_shared<LoadedRun>();
    loaded->store = std::make_shared<const SpanStore>(SpanStore::fromRun(*run));
    run->spans.clear();
    run->spans.shrink_to_fit();
    loaded->run = std::move(*run);
    m_cache[id] = loaded;
    return loaded;
}

}  // namespace dtsim::gui
