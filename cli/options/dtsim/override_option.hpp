// The `--set KEY=VALUE` option of every command that reads a scenario (dtsim's and dtsim-runtime's).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dtsim {

// One value per flag, repeated for more: a vector option otherwise takes every word up to the next flag,
// so `--set cluster.nodes=2 scenario.yaml` would swallow the scenario.
inline CLI::Option* add_override_option(CLI::App& command, std::vector<std::string>& overrides,
                                        const std::string& description) {
    return command.add_option("--set", overrides, description + " (repeat --set for more keys)")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
}

}  // namespace dtsim
