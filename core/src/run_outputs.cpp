#include "dtsim/run_outputs.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "dtsim/chrome_trace.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/run_json.hpp"
#include "dtsim/run_store.hpp"

namespace dtsim {

namespace fs = std::filesystem;

void prepare_output_file(const std::string& option, const std::string& path) {
    if (path.empty()) return;
    const fs::path file(path);
    const fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
    const std::string where = "command line: " + option + " " + path + ": ";
    std::error_code error;
    fs::create_directories(folder, error);
    if (error) throw InputError(where + "cannot create the folder " + folder.string() + " (" + error.message() + ")");
    if (fs::is_directory(file)) throw InputError(where + "is a folder; expected a file name");
    // An existing file must be writable; a new one needs a writable folder.
    const fs::path target = fs::exists(file) ? file : folder;
    if (access(target.c_str(), W_OK) != 0)
        throw InputError(where + "cannot write " + target.string() + " (" + std::strerror(errno) + ")");
}

void prepare_run_outputs(const RunOutputs& outputs) {
    prepare_output_file("--json", outputs.json_path);
    prepare_output_file("--trace", outputs.trace_path);
    prepare_output_file("--db", outputs.db_path);
    if (!outputs.db_path.empty() && fs::exists(outputs.db_path)) {
        const RunStore existing(outputs.db_path);  // refuses a file that is not a runs database
    }
}

std::optional<std::int64_t> write_run_outputs(Run& run, const RunOutputs& outputs) {
    require_finite(run);
    // Opened first: a database that cannot be opened leaves no JSON or trace behind.
    std::optional<RunStore> store;
    if (!outputs.db_path.empty()) store.emplace(outputs.db_path);
    if (!outputs.json_path.empty()) {
        std::ofstream out(outputs.json_path, std::ios::binary);
        out << run_summary_json_text(run);
        if (!out) throw std::runtime_error(outputs.json_path + ": cannot write JSON output");
    }
    if (!outputs.trace_path.empty()) write_chrome_trace_file(run, outputs.trace_path);
    if (!store) return std::nullopt;
    return store->append(run);
}

}  // namespace dtsim
