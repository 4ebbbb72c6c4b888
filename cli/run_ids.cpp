#include "run_ids.hpp"

#include <charconv>
#include <limits>

#include "dtsim/input_error.hpp"
#include "dtsim/utf8_text.hpp"

namespace dtsim::cli {

bool looks_like_run_id(const std::string& text) {
    return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

std::int64_t parse_run_id(const std::string& text) {
    std::int64_t id = 0;
    const auto* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, id);
    if (!looks_like_run_id(text) || error != std::errc() || stop != end || id < 1)
        throw InputError("command line: run id '" + printable_text(text) + "': expected a whole number from 1 to " +
                         std::to_string(std::numeric_limits<std::int64_t>::max()) + " (see dtsim runs list)");
    return id;
}

Run load_stored_run(const RunStore& store, const std::string& db_path, std::int64_t id) {
    auto run = store.load(id);
    if (!run)
        throw InputError("run " + std::to_string(id) + ": no run with this id in " + db_path + " (see dtsim runs list --db " +
                         db_path + ")");
    return std::move(*run);
}

}  // namespace dtsim::cli
