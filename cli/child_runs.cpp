#include "child_runs.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "dtsim/data_paths.hpp"
#include "dtsim/temporary_directory.hpp"

namespace dtsim::cli {
namespace {

pid_t start_child(const std::vector<std::string>& arguments, const std::string& stderr_path) {
    // Made before the fork: the progress display's thread runs in the parent, and a child of a process
    // with threads should do nothing but plain system calls until it executes.
    std::vector<char*> argv;
    static char self_name[] = "dtsim";
    argv.push_back(self_name);
    for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("cannot start a child process");
    if (pid > 0) return pid;
    const int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int null = open("/dev/null", O_WRONLY);
    if (err >= 0) dup2(err, STDERR_FILENO);
    if (null >= 0) dup2(null, STDOUT_FILENO);
    execv("/proc/self/exe", argv.data());
    _exit(127);
}

std::string read_if_exists(const std::filesystem::path& path) {
    std::error_code ec;
    return std::filesystem::exists(path, ec) ? read_text_file(path) : std::string();
}

}  // namespace

std::vector<ChildResult> run_children(const std::vector<std::vector<std::string>>& arguments, int jobs,
                                      const std::string& json_flag, const ChildrenProgress& progress) {
    std::atomic<long long> done{0};
    const ProgressDisplay display(progress.style, [&] {
        ProgressReport report;
        report.task = progress.task;
        report.done = done.load();
        report.total = static_cast<long long>(arguments.size());
        report.unit = progress.unit;
        return report;
    });
    TemporaryDirectory scratch;
    std::vector<ChildResult> results(arguments.size());
    std::map<pid_t, size_t> running;
    size_t next = 0;
    auto json_path = [&](size_t i) { return scratch.path() / ("point-" + std::to_string(i) + ".json"); };
    auto err_path = [&](size_t i) { return scratch.path() / ("point-" + std::to_string(i) + ".err"); };
    while (next < arguments.size() || !running.empty()) {
        while (next < arguments.size() && static_cast<int>(running.size()) < std::max(1, jobs)) {
            auto args = arguments[next];
            args.push_back(json_flag);
            args.push_back(json_path(next).string());
            running[start_child(args, err_path(next).string())] = next;
            ++next;
        }
        int status = 0;
        const pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) throw std::runtime_error("lost track of child processes");
        auto it = running.find(pid);
        if (it == running.end()) continue;
        const size_t i = it->second;
        running.erase(it);
        auto& result = results[i];
        result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        result.output_json = read_if_exists(json_path(i));
        result.error_text = read_if_exists(err_path(i));
        ++done;
    }
    return results;
}

}  // namespace dtsim::cli
