#pragma once
// Runs simulations as child processes of this executable (SimGrid's engine is process-wide), at most
// `jobs` at a time, reporting each completion.
#include <functional>
#include <string>
#include <vector>

namespace dtsim::cli {

struct ChildResult {
    int exit_code = 0;
    std::string output_json;  // what the child wrote to its --json file
    std::string error_text;   // what it wrote to stderr
};

/// `arguments[i]` are the arguments of child i after the executable name. `on_done(i, result)` is called
/// in the parent as each child ends.
std::vector<ChildResult> run_children(const std::vector<std::vector<std::string>>& arguments, int jobs,
                                      const std::string& json_flag,
                                      const std::function<void(size_t, const ChildResult&)>& on_done);

}  // namespace dtsim::cli
