#include "progress_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dtsim/units.hpp"

namespace dtsim::cli {
namespace {

// "950 events/s", "1.5 M events/s".
std::string event_rate(double per_s) {
    if (per_s >= 1000) return format_count(per_s) + " events/s";
    return std::to_string(std::llround(per_s)) + " events/s";
}

}  // namespace

std::optional<double> remaining_s(double elapsed_s, double done_at_s, long long done, long long total) {
    if (done <= 0 || total < done) return std::nullopt;
    const double per_unit_s = done_at_s / static_cast<double>(done);
    return std::max(0.0, per_unit_s * static_cast<double>(total - done) - (elapsed_s - done_at_s));
}

std::string format_wall_time(double seconds) {
    const auto whole = static_cast<long long>(std::llround(std::max(0.0, seconds)));
    char buffer[48];
    if (whole >= 3600)
        std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", whole / 3600, whole / 60 % 60, whole % 60);
    else
        std::snprintf(buffer, sizeof buffer, "%lld:%02lld", whole / 60, whole % 60);
    return buffer;
}

std::string progress_text(const ProgressReport& report) {
    std::string text = report.task + ": [" + std::to_string(report.done) + "/" + std::to_string(report.total) + "] " + report.unit;
    if (report.simulated_s) text += ", " + format_seconds(*report.simulated_s) + " simulated";
    if (report.events && report.elapsed_s > 0)
        text += ", " + event_rate(static_cast<double>(*report.events) / report.elapsed_s);
    text += ", " + format_wall_time(report.elapsed_s) + " elapsed";
    if (const auto eta = remaining_s(report.elapsed_s, report.done_at_s, report.done, report.total))
        text += ", ETA " + format_wall_time(*eta);
    return text;
}

}  // namespace dtsim::cli
