#pragma once
// DIR/samples.jsonl, written by rank 0: every sample is appended, flushed and synced to disk the moment
// it is taken, so a crash loses at most the sample in flight. Measured data is never overwritten: an
// existing file needs --resume, which keeps it and skips the keys it already has.
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

namespace dtsim::runtime {

class SampleLog {
public:
    /// Throws InputError when the file exists and `resume` is false. With `resume`, a last line torn by
    /// a crash is cut off (reported on stderr) so that new samples start on a line of their own.
    SampleLog(const std::filesystem::path& directory, bool resume);
    ~SampleLog();
    SampleLog(const SampleLog&) = delete;
    SampleLog& operator=(const SampleLog&) = delete;

    const std::set<std::string>& existing_keys() const { return existing_keys_; }
    const std::filesystem::path& path() const { return path_; }
    void append(const std::string& json_line);

private:
    std::filesystem::path path_;
    std::set<std::string> existing_keys_;
    std::FILE* file_ = nullptr;
};

}  // namespace dtsim::runtime
