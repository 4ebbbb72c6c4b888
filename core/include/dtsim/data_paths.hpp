#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace dtsim {

/// The folder holding hardware presets, the model zoo and profiles: $DTSIM_DATA_DIR when set, else the
/// `data/` folder next to the build tree of the running executable, else the source tree's.
std::filesystem::path data_dir();

/// Names (file stems) of the files with `extension` in a data sub-folder, sorted.
std::vector<std::string> list_data_names(const std::string& subfolder, const std::string& extension = ".yaml");

/// The path of data/<subfolder>/<name><extension>. An unknown name is an InputError that starts with `where`,
/// suggests the closest known name and lists them all; `what` names the kind ("gpu preset").
std::filesystem::path require_data_file(const std::string& subfolder, const std::string& name, const std::string& what,
                                        const std::string& where, const std::string& extension = ".yaml");

/// The largest scenario, profile, preset or model file read: far beyond any written by hand or by `dtsim fit`,
/// small enough that `/dev/zero` given as a scenario is refused at once.
inline constexpr std::uintmax_t kMaxDocumentBytes = 16 << 20;
inline constexpr std::uintmax_t kAnyFileSize = UINTMAX_MAX;  // a record dtsim wrote itself (samples, a run's JSON)

/// Reads a whole file; throws InputError naming the file when it cannot be read or holds more than `max_bytes`.
std::string read_text_file(const std::filesystem::path& path, std::uintmax_t max_bytes = kMaxDocumentBytes);

}  // namespace dtsim
