#include "child_runs.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "dtsim/data_paths.hpp"
#include "dtsim/temporary_directory.hpp"

namespace dtsim::cli {
namespace {

// The signals that stop a run of children: each is passed on to the children, which are waited for, the
// scratch folder is removed, and then this process ends by the same signal.
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

// While children run, their endings (SIGCHLD) and the stop signals are blocked and taken one at a time by
// wait(), so that none is lost between two checks; the signal mask before is restored on destruction.
class SignalWatch {
public:
    SignalWatch() {
        sigemptyset(&watched_);
        sigaddset(&watched_, SIGCHLD);
        for (int signal : kStopSignals) sigaddset(&watched_, signal);
        pthread_sigmask(SIG_BLOCK, &watched_, &before_);
    }
    ~SignalWatch() { pthread_sigmask(SIG_SETMASK, &before_, nullptr); }
    SignalWatch(const SignalWatch&) = delete;
    SignalWatch& operator=(const SignalWatch&) = delete;

    const sigset_t& mask_before() const { return before_; }

    // Waits until a child may have ended or a stop signal came, and returns that signal (0 for none). A
    // library thread that does not block SIGCHLD may take it instead: the wait is bounded, and the caller
    // looks for ended children after each.
    int wait() const {
        const timespec bound{0, 200'000'000};
        const int signal = sigtimedwait(&watched_, nullptr, &bound);
        return signal == SIGCHLD || signal < 0 ? 0 : signal;
    }

private:
    sigset_t watched_{};
    sigset_t before_{};
};

pid_t start_child(const std::vector<std::string>& arguments, const std::string& stderr_path, const sigset_t& mask) {
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
    sigprocmask(SIG_SETMASK, &mask, nullptr);  // the child takes signals as this process did before
    const int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int null = open("/dev/null", O_WRONLY);
    if (err >= 0) dup2(err, STDERR_FILENO);
    if (null >= 0) dup2(null, STDOUT_FILENO);
    execv("/proc/self/exe", argv.data());
    _exit(127);
}

std::string read_if_exists(const std::filesystem::path& path) {
    std::error_code ec;
    return std::filesystem::exists(path, ec) ? read_text_file(path, kAnyFileSize) : std::string();
}

// Runs the children in `scratch`; returns the stop signal that ended the run early, 0 when every child ran.
int run_in(const TemporaryDirectory& scratch, const SignalWatch& signals,
           const std::vector<std::vector<std::string>>& arguments, int jobs, const std::string& json_flag,
           std::atomic<long long>& done, std::vector<ChildResult>& results) {
    std::map<pid_t, size_t> running;
    size_t next = 0;
    int stop = 0;
    auto json_path = [&](size_t i) { return scratch.path() / ("point-" + std::to_string(i) + ".json"); };
    auto err_path = [&](size_t i) { return scratch.path() / ("point-" + std::to_string(i) + ".err"); };
    while ((next < arguments.size() && stop == 0) || !running.empty()) {
        while (stop == 0 && next < arguments.size() && static_cast<int>(running.size()) < std::max(1, jobs)) {
            auto args = arguments[next];
            args.push_back(json_flag);
            args.push_back(json_path(next).string());
            running[start_child(args, err_path(next).string(), signals.mask_before())] = next;
            ++next;
        }
        int status = 0;
        const pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid < 0 && errno == EINTR) continue;
        if (pid < 0) throw std::runtime_error("lost track of child processes");
        if (pid == 0) {
            if (const int signal = signals.wait(); signal != 0 && stop == 0) {
                stop = signal;
                for (const auto& child : running) kill(child.first, signal);
            }
            continue;
        }
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
    return stop;
}

}  // namespace

std::vector<ChildResult> run_children(const std::vector<std::vector<std::string>>& arguments, int jobs,
                                      const std::string& json_flag, const ChildrenProgress& progress) {
    std::vector<ChildResult> results(arguments.size());
    int stop = 0;
    {
        const SignalWatch signals;  // first, so that the display's thread starts with the signals blocked too
        std::atomic<long long> done{0};
        const ProgressDisplay display(progress.style, [&] {
            ProgressReport report;
            report.task = progress.task;
            report.done = done.load();
            report.total = static_cast<long long>(arguments.size());
            report.unit = progress.unit;
            return report;
        });
        const TemporaryDirectory scratch;  // removed before the signal mask is restored
        stop = run_in(scratch, signals, arguments, jobs, json_flag, done, results);
    }
    if (stop != 0) {
        std::signal(stop, SIG_DFL);
        std::raise(stop);
    }
    return results;
}

}  // namespace dtsim::cli
