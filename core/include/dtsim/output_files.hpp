#pragma once
// The files a command writes. They are checked before the command does its work (a bad path fails at once,
// and an output never replaces one of the command's own inputs or another of its outputs), and each is
// written whole or not at all, so a failure leaves the file that was there before.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace dtsim {

/// An output file and the option that named it ("--json"), or what it is where no option did ("the export");
/// an empty path is an output not asked for.
struct OutputFile {
    std::string option;
    std::string path;
};

/// A file the command reads, and what it is ("the scenario", "the runs database").
struct InputFile {
    std::string role;
    std::string path;
};

/// Creates the folder of every output and checks that the output can be written there and that it is
/// neither an input nor another output (the same file by any name). InputError naming the option and path.
void prepare_output_files(const std::vector<OutputFile>& outputs, const std::vector<InputFile>& inputs = {});

/// Writes `path` whole or not at all: `write` fills a new file beside it, which then replaces `path` in one
/// step. When `write` throws or the file cannot be completed, the new file is removed and `path` is as it was.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

/// write_file_atomically of a text.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace dtsim
