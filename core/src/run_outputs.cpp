#include "dtsim/run_outputs.hpp"

#include <fstream>
#include <stdexcept>

#include "dtsim/chrome_trace.hpp"
#include "dtsim/run_json.hpp"
#include "dtsim/run_store.hpp"

namespace dtsim {

std::optional<std::int64_t> write_run_outputs(Run& run, const RunOutputs& outputs) {
    require_finite(run);
    if (!outputs.json_path.empty()) {
        std::ofstream out(outputs.json_path, std::ios::binary);
        out << run_summary_json_text(run);
        if (!out) throw std::runtime_error(outputs.json_path + ": cannot write JSON output");
    }
    if (!outputs.trace_path.empty()) write_chrome_trace_file(run, outputs.trace_path);
    if (outputs.db_path.empty()) return std::nullopt;
    RunStore store(outputs.db_path);
    return store.append(run);
}

}  // namespace dtsim
