// A check for options that must be greater than 0, with a message that says so (CLI11's PositiveNumber
// reports "not in range 0.000000 to 1.797...e+308").
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <string>

namespace dtsim {

inline const CLI::Validator kPositiveNumber(
    [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0)
            return "expected a number greater than 0, got '" + text + "'";
        return {};
    },
    "POSITIVE");

}  // namespace dtsim
