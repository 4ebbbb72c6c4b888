#pragma once
// The text of a progress line: what is done of how much, how long it took and how long it may still take.
// Pure functions, so that what a terminal shows is tested without one.
#include <optional>
#include <string>

namespace dtsim::cli {

struct ProgressReport {
    std::string task;       // "simulate", "sweep"
    long long done = 0;     // units of work done
    long long total = 0;    // of how many
    std::string unit;       // what a unit is, plural: "iterations", "points"
    double elapsed_s = 0;   // wall-clock time since the work started
    double done_at_s = 0;   // when the count last rose (the display's reckoning, to its refresh)
    std::optional<double> simulated_s;  // a simulation's clock
    std::optional<long long> events;    // a simulation's steps so far
};

/// The wall-clock time still to go if each remaining unit takes as long as the `done` ones did by
/// `done_at_s`, counting down since then (never below 0); none before the first is done.
std::optional<double> remaining_s(double elapsed_s, double done_at_s, long long done, long long total);

/// A wall-clock duration as a clock reads: "0:07", "12:30", "1:02:03".
std::string format_wall_time(double seconds);

/// "sweep: [3/10] points, 0:42 elapsed, ETA 1:38";
/// "simulate: [0/10] iterations, 1.25 s simulated, 1.5 M events/s, 0:03 elapsed".
std::string progress_text(const ProgressReport& report);

}  // namespace dtsim::cli
