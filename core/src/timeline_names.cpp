#include "dtsim/timeline_names.hpp"

namespace dtsim {

std::optional<Dimension> span_dimension(std::string_view name) {
    const auto space = name.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    return kDimensionNames.parse(name.substr(0, space));
}

}  // namespace dtsim
