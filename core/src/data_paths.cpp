#include "dtsim/data_paths.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "dtsim/config_node.hpp"
#include "dtsim/input_error.hpp"

#ifndef DTSIM_SOURCE_DATA_DIR
#define DTSIM_SOURCE_DATA_DIR "data"
#endif

namespace dtsim {

std::filesystem::path data_dir() {
    if (const char* env = std::getenv("DTSIM_DATA_DIR"); env && *env) return env;
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        // build/bin/dtsim -> <repo>/data
        auto candidate = exe.parent_path().parent_path().parent_path() / "data";
        if (std::filesystem::is_directory(candidate / "hardware", ec)) return candidate;
    }
    return DTSIM_SOURCE_DATA_DIR;
}

std::vector<std::string> list_data_names(const std::string& subfolder, const std::string& extension) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(data_dir() / subfolder, ec))
        if (entry.path().extension() == extension) names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::filesystem::path require_data_file(const std::string& subfolder, const std::string& name, const std::string& what,
                                        const std::string& where, const std::string& extension) {
    // A plain file name whose file is there is what the listing would find: `dtsim plan` asks for the same
    // presets once per configuration, and listing the folder each time cost a tenth of its checks.
    if (!name.empty() && name.find('/') == std::string::npos) {
        auto path = data_dir() / subfolder / (name + extension);
        std::error_code ec;
        if (std::filesystem::is_regular_file(path, ec)) return path;
    }
    const auto names = list_data_names(subfolder, extension);
    if (std::find(names.begin(), names.end(), name) == names.end()) {
        std::string known;
        for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
        const auto hint = closest_match(name, names);
        throw InputError(where + ": unknown " + what + " '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                         "; known: " + known);
    }
    return data_dir() / subfolder / (name + extension);
}

std::string read_text_file(const std::filesystem::path& path, std::uintmax_t max_bytes) {
    if (path.empty()) throw InputError("'' (an empty file name): expected the name of a file to read");
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(path.string() + ": is a directory, expected a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path.string() + ": cannot open file for reading (" + std::strerror(errno) + ")");
    // Read in blocks rather than by the file's size: a device or a pipe has none, and /dev/zero never ends.
    std::string content;
    std::array<char, 64 * 1024> block{};
    while (in.read(block.data(), block.size()) || in.gcount() > 0) {
        content.append(block.data(), static_cast<std::size_t>(in.gcount()));
        if (content.size() > max_bytes)
            throw InputError(path.string() + ": larger than " + std::to_string(max_bytes >> 20) +
                             " MiB; expected a scenario, profile, preset or model file (at most that size)");
    }
    if (in.bad()) throw InputError(path.string() + ": read error");
    return content;
}

}  // namespace dtsim
