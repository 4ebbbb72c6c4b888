#include "dtsim/run_outputs.hpp"

#include <filesystem>
#include <stdexcept>

#include "dtsim/chrome_trace.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/output_files.hpp"
#include "dtsim/run_json.hpp"
#include "dtsim/run_store.hpp"

namespace dtsim {

void prepare_run_outputs(const RunOutputs& outputs, const Scenario& scenario) {
    std::vector<InputFile> inputs{{"the scenario", scenario.file}};
    if (scenario.profile) inputs.push_back({"the scenario's profile", scenario.profile->file});
    if (scenario.model.zoo) inputs.push_back({"the scenario's model file", scenario.model.zoo->file});
    // Any preset may be one the scenario read: a node preset names a GPU preset and its links.
    for (const std::string kind : {"gpu", "network", "node"})
        for (const auto& name : list_data_names("hardware/" + kind))
            inputs.push_back({"a hardware preset", (data_dir() / "hardware" / kind / (name + ".yaml")).string()});
    prepare_output_files({{"--json", outputs.json_path}, {"--trace", outputs.trace_path}, {"--db", outputs.db_path}}, inputs);
    require_runs_database_or_none(outputs.db_path);
}

void require_runs_database_or_none(const std::string& db_path) {
    if (!db_path.empty() && std::filesystem::exists(db_path)) {
        const RunStore existing(db_path);  // refuses a file that is not a runs database
    }
}

std::optional<std::int64_t> write_run_outputs(Run& run, const RunOutputs& outputs) {
    require_finite(run);
    // Stored first: the database keeps the run whatever happens to the files.
    std::optional<std::int64_t> id;
    if (!outputs.db_path.empty()) id = RunStore(outputs.db_path).append(run);
    try {
        if (!outputs.json_path.empty()) write_text_file(outputs.json_path, run_summary_json_text(run));
        if (!outputs.trace_path.empty()) write_chrome_trace_file(run, outputs.trace_path);
    } catch (const std::exception& e) {
        if (!id) throw;
        throw std::runtime_error(std::string(e.what()) + " (the run is stored as run " + std::to_string(*id) + " in " +
                                 outputs.db_path + ")");
    }
    return id;
}

}  // namespace dtsim
