#include "sample_log.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "dtsim/calibrate/samples.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"

namespace dtsim::runtime {
namespace {

// Cuts the file after its last newline; returns the number of bytes removed.
std::uintmax_t cut_torn_tail(const std::filesystem::path& path) {
    const std::string text = read_text_file(path.string(), kAnyFileSize);
    if (text.empty() || text.back() == '\n') return 0;
    const auto last_newline = text.rfind('\n');
    const auto keep = last_newline == std::string::npos ? 0 : last_newline + 1;
    std::filesystem::resize_file(path, keep);
    return text.size() - keep;
}

}  // namespace

SampleLog::SampleLog(const std::filesystem::path& directory, bool resume) : path_(directory / "samples.jsonl") {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error) throw InputError("--out " + directory.string() + ": cannot create the directory: " + error.message());
    if (std::filesystem::exists(path_) && std::filesystem::file_size(path_) > 0) {
        if (!resume)
            throw InputError(path_.string() + " already holds samples; pass --resume to add the missing ones, or "
                             "choose another --out (measured samples are never overwritten)");
        if (const auto removed = cut_torn_tail(path_))
            std::cerr << "dtsim-runtime: " << path_.string() << ": removed a last line torn by a crash (" << removed
                      << " bytes); that sample is taken again\n";
        for (const auto& sample : calibrate::read_samples_file(path_.string()).samples) existing_keys_.insert(sample.key);
    }
    file_ = std::fopen(path_.c_str(), "a");
    if (!file_) throw InputError(path_.string() + ": cannot open for appending: " + std::strerror(errno));
}

SampleLog::~SampleLog() {
    if (file_) std::fclose(file_);
}

void SampleLog::append(const std::string& json_line) {
    const std::string line = json_line + "\n";
    if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0 || fsync(fileno(file_)) != 0)
        throw std::runtime_error(path_.string() + ": cannot write a sample: " + std::strerror(errno));
}

}  // namespace dtsim::runtime
