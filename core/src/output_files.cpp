#include "dtsim/output_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "dtsim/input_error.hpp"

namespace dtsim {
namespace {

namespace fs = std::filesystem;

// "command line: --json x.json: ", or where no option named it (a GUI's export) "the export x.png: ".
std::string where(const OutputFile& output) {
    return (output.option.rfind("--", 0) == 0 ? "command line: " : "") + output.option + " " + output.path + ": ";
}

fs::path folder_of(const fs::path& file) { return file.parent_path().empty() ? fs::path(".") : file.parent_path(); }

// Whether two paths name the same file: the same inode when both exist, else the same normalized path.
bool same_file(const std::string& a, const std::string& b) {
    std::error_code error;
    if (fs::exists(a, error) && fs::exists(b, error)) return fs::equivalent(a, b, error);
    return fs::weakly_canonical(fs::absolute(a), error) == fs::weakly_canonical(fs::absolute(b), error);
}

// The file a path names: the one a symbolic link points to, or the path itself when it is none or dangles.
fs::path resolved(const fs::path& path) {
    std::error_code error;
    const auto target = fs::is_symlink(path, error) ? fs::canonical(path, error) : path;
    return error ? path : target;
}

void require_writable(const OutputFile& output, const fs::path& target) {
    if (access(target.c_str(), W_OK) != 0)
        throw InputError(where(output) + "cannot write " + target.string() + " (" + std::strerror(errno) + ")");
}

void prepare_one(const OutputFile& output) {
    const fs::path file(output.path);
    const fs::path folder = folder_of(file);
    std::error_code error;
    fs::create_directories(folder, error);
    if (error)
        throw InputError(where(output) + "cannot create the folder " + folder.string() + " (" + error.message() + ")");
    if (fs::is_directory(file)) throw InputError(where(output) + "is a folder; expected a file name");
    // What is not a regular file (/dev/stdout, a pipe) is written in place.
    if (fs::exists(file) && !fs::is_regular_file(file)) return require_writable(output, file);
    // A file is written beside the one it replaces and renamed over it, so its folder must be writable; an
    // existing file that is not writable is protected, and left alone.
    const fs::path target = resolved(file);
    require_writable(output, folder_of(target));
    if (fs::exists(target)) require_writable(output, target);
}

// A file name beside `path` that no other writer uses: this process's id and a counter.
std::string temporary_name(const std::string& path) {
    static std::atomic<unsigned> counter{0};
    const fs::path file(path);
    return (folder_of(file) / ("." + file.filename().string() + ".tmp-" + std::to_string(getpid()) + "-" +
                               std::to_string(counter++)))
        .string();
}

// Writes straight into what is not a regular file (/dev/stdout, a pipe): there is nothing to keep whole,
// and it must not be replaced.
void write_in_place(const std::string& path, const std::function<void(std::ostream&)>& write) {
    std::ofstream out(path, std::ios::binary);
    if (out) write(out);
    out.flush();
    if (!out) throw std::runtime_error(path + ": cannot write (" + std::strerror(errno) + ")");
}

}  // namespace

void prepare_output_files(const std::vector<OutputFile>& outputs, const std::vector<InputFile>& inputs) {
    for (size_t i = 0; i < outputs.size(); ++i) {
        const auto& output = outputs[i];
        if (output.path.empty()) continue;
        for (const auto& input : inputs)
            if (!input.path.empty() && same_file(output.path, input.path))
                throw InputError(where(output) + "is " + input.role +
                                 " this command reads; writing it would destroy it; give another file name");
        for (size_t j = 0; j < i; ++j)
            if (!outputs[j].path.empty() && same_file(output.path, outputs[j].path))
                throw InputError(where(output) + "is also the " + outputs[j].option +
                                 " output; give each output a file of its own");
        prepare_one(output);
    }
}

void write_file_atomically(const std::string& link_or_path, const std::function<void(std::ostream&)>& write) {
    std::error_code error;
    if (fs::exists(link_or_path, error) && !fs::is_regular_file(link_or_path, error)) {
        write_in_place(link_or_path, write);
        return;
    }
    // Through a symbolic link, the file it points to is replaced, and the link stays.
    const std::string path = resolved(link_or_path).string();
    // Created here, not by the stream, so that an existing file of that name (left by a process killed
    // while writing) is never truncated.
    std::string temporary;
    int fd = -1;
    while (fd < 0) {
        temporary = temporary_name(path);
        fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST)
            throw std::runtime_error(path + ": cannot create " + temporary + " (" + std::strerror(errno) + ")");
    }
    // The file replaced keeps its permissions.
    struct stat existing {};
    if (stat(path.c_str(), &existing) == 0) fchmod(fd, existing.st_mode & 07777);
    close(fd);
    try {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        write(out);
        out.flush();
        if (!out) throw std::runtime_error(path + ": cannot write (" + std::strerror(errno) + ")");
        out.close();
        if (!out) throw std::runtime_error(path + ": cannot write (" + std::strerror(errno) + ")");
        if (std::rename(temporary.c_str(), path.c_str()) != 0)
            throw std::runtime_error(path + ": cannot replace it (" + std::strerror(errno) + ")");
    } catch (...) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw;
    }
}

void write_text_file(const std::string& path, const std::string& text) {
    write_file_atomically(path, [&](std::ostream& out) { out << text; });
}

}  // namespace dtsim
