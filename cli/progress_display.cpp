#include "progress_display.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <iostream>

namespace dtsim::cli {
namespace {

constexpr auto kRefresh = std::chrono::milliseconds(250);

// A line longer than the terminal wraps, and rewriting it in place would leave its first part behind.
std::string fit_terminal(std::string text) {
    winsize size{};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1 && text.size() >= size.ws_col)
        text.resize(size.ws_col - 1u);
    return text;
}

}  // namespace

void add_progress_lines_flag(CLI::App& command, bool& lines) {
    command.add_flag("--progress-lines", lines,
                     "Progress on stderr as one line per unit of work done, even when stderr is not a terminal");
}

ProgressStyle progress_style(bool quiet, bool lines, int ranks) {
    if (quiet) return ProgressStyle::none;
    if (lines) return ProgressStyle::lines;
    if (!isatty(STDERR_FILENO)) return ProgressStyle::none;
    return ranks > 1 ? ProgressStyle::lines : ProgressStyle::line;
}

ProgressDisplay::ProgressDisplay(ProgressStyle style, std::function<ProgressReport()> report)
    : style_(style), report_(std::move(report)), start_(std::chrono::steady_clock::now()) {
    if (style_ != ProgressStyle::none) thread_ = std::thread([this] { run(); });
}

ProgressDisplay::~ProgressDisplay() {
    if (!thread_.joinable()) return;
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

ProgressReport ProgressDisplay::now() {
    auto report = report_();
    report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (report.done != last_done_) {
        last_done_ = report.done;
        last_done_at_s_ = report.elapsed_s;
    }
    report.done_at_s = last_done_at_s_;
    return report;
}

void ProgressDisplay::run() {
    std::unique_lock lock(mutex_);
    bool drawn = false;    // line: something to clear at the end
    long long shown = 0;   // lines: the count of the last line printed
    auto print_if_more_done = [&] {
        const auto report = now();
        if (report.done == shown) return;
        shown = report.done;
        std::cerr << progress_text(report) << "\n" << std::flush;
    };
    while (!wake_.wait_for(lock, kRefresh, [this] { return stopping_; })) {
        if (style_ == ProgressStyle::lines) {
            print_if_more_done();
            continue;
        }
        std::cerr << "\r" << fit_terminal(progress_text(now())) << "\033[K" << std::flush;
        drawn = true;
    }
    if (style_ == ProgressStyle::lines) print_if_more_done();  // what was done since the last look
    if (drawn) std::cerr << "\r\033[K" << std::flush;
}

ProgressReport simulation_report(const std::string& task, const std::string& unit, const sim::SimulationProgress& progress) {
    return {.task = task,
            .done = progress.done.load(std::memory_order_relaxed),
            .total = progress.total.load(std::memory_order_relaxed),
            .unit = unit,
            .simulated_s = progress.simulated_s.load(std::memory_order_relaxed),
            .events = progress.events.load(std::memory_order_relaxed)};
}

}  // namespace dtsim::cli
