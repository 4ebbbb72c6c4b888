#include "dtsim/calibrate/environment.hpp"

#include <climits>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"

namespace dtsim::calibrate {
namespace {

using nlohmann::ordered_json;

std::vector<int> rank_list(const ConfigNode& node) {
    std::vector<int> ranks;
    for (const auto& item : node.sequence()) ranks.push_back(static_cast<int>(item.integer("", 0, INT_MAX)));
    return ranks;
}

std::map<std::string, std::string> settings(const ConfigNode& node) {
    if (!node.is_map()) node.fail("", "expected a mapping of parameter names to values");
    std::map<std::string, std::string> out;
    for (const auto& entry : node.yaml()) out[entry.first.Scalar()] = node.text(entry.first.Scalar());
    return out;
}

std::string optional_environment_text(const ConfigNode& node, std::string_view key) {
    return node.has(key) ? node.text(key) : "";
}

int optional_count(const ConfigNode& node, std::string_view key) {
    return node.has(key) ? static_cast<int>(node.integer(key, 1, INT_MAX)) : 0;
}

void read_lists(const ConfigNode& root, CalibrationEnvironment& environment) {
    if (root.has("node_of_rank")) environment.node_of_rank = rank_list(root.child("node_of_rank"));
    if (root.has("hosts"))
        for (const auto& host : root.child("hosts").sequence())
            environment.hosts.push_back({host.text("host"), rank_list(host.child("ranks"))});
    if (root.has("machines"))
        for (const auto& machine : root.child("machines").sequence())
            environment.machines.push_back(
                {static_cast<int>(machine.integer("cores", 1, INT_MAX)), rank_list(machine.child("ranks"))});
}

}  // namespace

std::string environment_to_json(const CalibrationEnvironment& environment) {
    ordered_json hosts = ordered_json::array();
    for (const auto& host : environment.hosts) hosts.push_back({{"host", host.host}, {"ranks", host.ranks}});
    ordered_json machines = ordered_json::array();
    for (const auto& machine : environment.machines) machines.push_back({{"cores", machine.cores}, {"ranks", machine.ranks}});
    ordered_json json{{"tool", environment.tool},
                      {"date", environment.date},
                      {"command", environment.command},
                      {"backend", environment.backend},
                      {"ranks", environment.ranks},
                      {"nodes", environment.nodes},
                      {"node_of_rank", environment.node_of_rank},
                      {"hosts", hosts},
                      {"machines", machines},
                      {"communicator", {{"name", environment.communicator_name}, {"version", environment.communicator_version}}},
                      {"device", ordered_json::parse(environment.device_json)},
                      {"mpi_library", environment.mpi_library},
                      {"quick", environment.quick}};
    if (!environment.mpi_collective_algorithms.empty()) json["mpi_collective_algorithms"] = environment.mpi_collective_algorithms;
    if (!environment.mpi_transport.empty()) json["mpi_transport"] = environment.mpi_transport;
    return json.dump(2) + "\n";
}

CalibrationEnvironment environment_from_json(const std::string& text, const std::string& file_label) {
    const auto object = ordered_json::parse(text, nullptr, false);
    if (!object.is_object()) throw InputError(file_label + ": expected a JSON object describing the calibration");
    const auto root = ConfigNode::parse(text, std::make_shared<DocumentSource>(DocumentSource{file_label, {}}));
    CalibrationEnvironment environment;
    environment.tool = optional_environment_text(root, "tool");
    environment.date = optional_environment_text(root, "date");
    environment.command = optional_environment_text(root, "command");
    environment.backend = optional_environment_text(root, "backend");
    environment.ranks = optional_count(root, "ranks");
    environment.nodes = optional_count(root, "nodes");
    read_lists(root, environment);
    if (root.has("communicator")) {
        const auto communicator = root.child("communicator");
        environment.communicator_name = optional_environment_text(communicator, "name");
        environment.communicator_version = optional_environment_text(communicator, "version");
    }
    if (object.contains("device")) {
        if (!object["device"].is_object()) root.fail("device", "expected a JSON object describing the device");
        environment.device_json = object["device"].dump();
    }
    environment.mpi_library = optional_environment_text(root, "mpi_library");
    environment.quick = root.has("quick") && root.boolean("quick");
    if (root.has("mpi_collective_algorithms")) environment.mpi_collective_algorithms = settings(root.child("mpi_collective_algorithms"));
    if (root.has("mpi_transport")) environment.mpi_transport = settings(root.child("mpi_transport"));
    return environment;
}

CalibrationEnvironment read_environment_file(const std::string& path) { return environment_from_json(read_text_file(path), path); }

std::string calibration_command(const std::vector<std::string>& argv) {
    std::string out;
    for (size_t i = 0; i < argv.size(); ++i) {
        std::string word = argv[i];
        if (i == 0) word = std::filesystem::path(word).filename().string();
        else if (argv[i - 1] == "--out") word = ".";
        else if (word.starts_with("--out=")) word = "--out=.";
        out += (i ? " " : "") + word;
    }
    return out;
}

std::optional<SharedCores> shared_cores(const CalibrationEnvironment& environment) {
    std::optional<SharedCores> shared;
    for (const auto& machine : environment.machines) {
        const SharedCores these{machine.cores, static_cast<int>(machine.ranks.size())};
        if (these.ranks <= these.cores) return std::nullopt;
        if (shared && (shared->cores != these.cores || shared->ranks != these.ranks)) return std::nullopt;
        shared = these;
    }
    return shared;
}

}  // namespace dtsim::calibrate
