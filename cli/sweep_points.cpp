#include "sweep_points.hpp"

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

}  // namespace dtsim::cli
