#pragma once
// The progress of a long command on stderr, drawn by a thread of its own while the command works: on a
// terminal, one line rewritten a few times a second and cleared at the end; with --progress-lines, one
// line each time a unit of work is done, for programs that read stderr (dtsim-gui); otherwise nothing.
#include <CLI/CLI.hpp>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "dtsim/sim/simulation_progress.hpp"
#include "progress_text.hpp"

namespace dtsim::cli {

enum class ProgressStyle { none, line, lines };

/// Adds --progress-lines to a command; its own --quiet, which says what else it silences, wins over it.
void add_progress_lines_flag(CLI::App& command, bool& lines);

/// Nothing with --quiet; lines when asked for; on a terminal a line, or lines where `ranks` MPI ranks
/// share it; nothing otherwise.
ProgressStyle progress_style(bool quiet, bool lines, int ranks = 1);

class ProgressDisplay {
public:
    /// `report` is called on the display's thread, so it may read only what is safe to read across threads
    /// (atomics); the display fills in the elapsed time.
    ProgressDisplay(ProgressStyle style, std::function<ProgressReport()> report);
    /// Stops drawing and clears the line.
    ~ProgressDisplay();
    ProgressDisplay(const ProgressDisplay&) = delete;
    ProgressDisplay& operator=(const ProgressDisplay&) = delete;

private:
    void run();
    /// What `report` says now, timed; `done_at_s` follows the count as this thread sees it change.
    ProgressReport now();

    const ProgressStyle style_;
    const std::function<ProgressReport()> report_;
    const std::chrono::steady_clock::time_point start_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    long long last_done_ = 0;
    double last_done_at_s_ = 0;
    std::thread thread_;
};

/// What a simulation reports through `progress`, counting `unit` ("iterations").
ProgressReport simulation_report(const std::string& task, const std::string& unit, const sim::SimulationProgress& progress);

}  // namespace dtsim::cli
