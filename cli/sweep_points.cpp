#include "sweep_points.hpp"

#include <algorithm>
#include <limits>

#include "dtsim/input_error.hpp"

namespace dtsim::cli {

SweepAxis parse_vary_option(const std::string& text) {
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
        throw InputError("command line: --vary '" + text + "': expected key=v1,v2,... e.g. --vary cluster.nodes=1,2,4");
    SweepAxis axis{text.substr(0, equals), {}};
    int depth = 0;
    std::string current;
    for (char c : text.substr(equals + 1)) {
        if (c == '[' || c == '{') ++depth;
        if (c == ']' || c == '}') --depth;
        if (c == ',' && depth == 0) {
            axis.values.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    axis.values.push_back(current);
    for (const auto& value : axis.values)
        if (value.empty()) throw InputError("command line: --vary '" + text + "': empty value in the list");
    if (depth != 0) throw InputError("command line: --vary '" + text + "': unbalanced brackets");
    return axis;
}

std::size_t count_sweep_points(const std::vector<SweepAxis>& axes, std::size_t max_points, const std::string& source) {
    // Saturates rather than overflows: fifty axes of ten values are more points than any integer holds.
    constexpr auto kMost = std::numeric_limits<std::size_t>::max();
    std::size_t points = 1;
    std::string product;
    for (const auto& axis : axes) {
        const auto values = axis.values.size();
        product += (product.empty() ? "" : " × ") + std::to_string(values);
        points = values > 0 && points > kMost / values ? kMost : points * values;
    }
    if (points <= max_points) return points;
    const auto count = points == kMost ? "more than " + std::to_string(max_points) : std::to_string(points);
    throw InputError(source + ": the sweep has " + count + " points (" + product + "); expected at most " +
                     std::to_string(max_points) + " (give --max-points N to allow more)");
}

std::vector<SweepPoint> expand_sweep(const std::vector<SweepAxis>& axes) {
    std::vector<SweepPoint> points{{}};
    for (const auto& axis : axes) {
        std::vector<SweepPoint> next;
        for (const auto& point : points)
            for (const auto& value : axis.values) {
                auto extended = point;
                extended.emplace_back(axis.key, value);
                next.push_back(std::move(extended));
            }
        points = std::move(next);
    }
    return points;
}

std::vector<std::string> as_overrides(const SweepPoint& point) {
    std::vector<std::string> overrides;
    for (const auto& [key, value] : point) overrides.push_back(key + "=" + value);
    return overrides;
}

namespace {

// "point 4", "points 1-3, 5": runs of consecutive indices (from 0) as ranges of point numbers (from 1).
std::string describe_points(const std::vector<size_t>& indices) {
    std::string text;
    for (size_t i = 0; i < indices.size();) {
        size_t last = i;
        while (last + 1 < indices.size() && indices[last + 1] == indices[last] + 1) ++last;
        text += (text.empty() ? "" : ", ") + std::to_string(indices[i] + 1);
        if (last > i) text += "-" + std::to_string(indices[last] + 1);
        i = last + 1;
    }
    return (indices.size() == 1 ? "point " : "points ") + text;
}

}  // namespace

std::vector<std::string> sweep_warnings(const std::vector<std::vector<std::string>>& warnings) {
    std::vector<std::pair<std::string, std::vector<size_t>>> distinct;
    for (size_t point = 0; point < warnings.size(); ++point)
        for (const auto& warning : warnings[point]) {
            auto it = std::find_if(distinct.begin(), distinct.end(), [&](const auto& d) { return d.first == warning; });
            if (it == distinct.end()) it = distinct.insert(distinct.end(), {warning, {}});
            if (it->second.empty() || it->second.back() != point) it->second.push_back(point);
        }
    std::vector<std::string> out;
    for (const auto& [warning, points] : distinct)
        out.push_back(warning + " (" + (points.size() == warnings.size() && warnings.size() > 1 ? "every point" : describe_points(points)) + ")");
    return out;
}

}  // namespace dtsim::cli
