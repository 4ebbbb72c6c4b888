#pragma once
// DIR/environment.json: where and how a calibration ran, written by `dtsim-runtime calibrate` (rank 0)
// and read by `dtsim fit` (shared cores, cross-validation's layout) and by a resumed calibration (same
// layout). The profile keeps it verbatim. Every key is optional when read: calibrations from before a key
// was recorded still fit.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dtsim/profile.hpp"

namespace dtsim::calibrate {

/// The ranks one host name ran.
struct HostRanks {
    std::string host;
    std::vector<int> ranks;
};

/// A physical machine under the hosts (containers of one machine share its cores).
struct MachineRanks {
    int cores = 0;
    std::vector<int> ranks;
};

struct CalibrationEnvironment {
    std::string tool = "dtsim-runtime calibrate";
    std::string date;     // UTC, ISO 8601
    /// The command line, its paths relative to the calibration folder (calibration_command).
    std::string command;
    std::string backend;  // mpi | nccl
    int ranks = 0;        // 0: not recorded
    int nodes = 0;
    std::vector<int> node_of_rank;
    std::vector<HostRanks> hosts;
    std::vector<MachineRanks> machines;
    std::string communicator_name;
    std::string communicator_version;
    std::string device_json = "{}";  // the device's own description, a JSON object
    std::string mpi_library;
    bool quick = false;
    std::map<std::string, std::string> mpi_collective_algorithms;  // MPI: what the collectives were pinned to
    std::map<std::string, std::string> mpi_transport;              // MPI: the transport settings in effect
};

/// Indented JSON text with a final newline, keys in a fixed order.
std::string environment_to_json(const CalibrationEnvironment& environment);
/// Throws InputError naming the file, line and key of a value of the wrong kind.
CalibrationEnvironment environment_from_json(const std::string& text, const std::string& file_label);
CalibrationEnvironment read_environment_file(const std::string& path);

/// `argv` as environment.json records it: the program by its file name and the value of --out as ".",
/// so that the command says how the folder was made without the machine's paths.
std::string calibration_command(const std::vector<std::string>& argv);

/// The cores the calibration's ranks shared, where every machine had the same number of ranks and cores
/// and the ranks outnumbered the cores (see SharedCores).
std::optional<SharedCores> shared_cores(const CalibrationEnvironment& environment);

}  // namespace dtsim::calibrate
