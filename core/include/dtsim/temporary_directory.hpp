#pragma once
#include <filesystem>
#include <string>

namespace dtsim {

/// A fresh directory under the system's temporary folder, removed with everything in it when the
/// object dies.
class TemporaryDirectory {
public:
    explicit TemporaryDirectory(const std::string& prefix = "dtsim");
    ~TemporaryDirectory();
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

}  // namespace dtsim
