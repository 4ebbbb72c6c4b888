#pragma once
// Runs simulations as child processes of this executable (SimGrid's engine is process-wide), at most
// `jobs` at a time, showing how many are done.
#include <string>
#include <vector>

#include "progress_display.hpp"

namespace dtsim::cli {

struct ChildResult {
    int exit_code = 0;
    std::string output_json;  // what the child wrote to its --json file
    std::string error_text;   // what it wrote to stderr
};

/// What the progress of the children is shown as: "sweep: [3/10] points".
struct ChildrenProgress {
    ProgressStyle style = ProgressStyle::none;
    std::string task;
    std::string unit;
};

/// `arguments[i]` are the arguments of child i after the executable name.
std::vector<ChildResult> run_children(const std::vector<std::vector<std::string>>& arguments, int jobs,
                                      const std::string& json_flag, const ChildrenProgress& progress);

}  // namespace dtsim::cli
