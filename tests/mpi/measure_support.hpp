#pragma once
// Runs `dtsim-runtime measure` under mpirun on a scenario given as YAML text and loads the stored run.
#include <fstream>
#include <string>
#include <vector>

#include "dtsim/run_store.hpp"
#include "test_support.hpp"

namespace dtsim::test {

struct Measured {
    CommandResult result;
    Run run;
};

inline Measured measure(int ranks, const std::string& scenario_yaml, std::vector<std::string> extra = {}) {
    TempDir dir;
    const auto scenario = dir.file("s.yaml");
    std::ofstream(scenario) << scenario_yaml;
    std::vector<std::string> args{"measure", scenario, "--db", dir.file("runs.db")};
    args.insert(args.end(), extra.begin(), extra.end());
    Measured out{run_runtime(ranks, args), {}};
    if (out.result.exit_code == 0) out.run = *RunStore(dir.file("runs.db")).load(1);
    return out;
}

}  // namespace dtsim::test
