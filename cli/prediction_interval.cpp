#include "prediction_interval.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

#include "child_runs.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/median.hpp"

namespace dtsim::cli {
namespace {

bool kept_errors(const Profile& profile) {
    return std::any_of(profile.network.begin(), profile.network.end(), [](const NetworkFit& fit) { return !fit.measured_error_s.empty(); });
}

}  // namespace

void add_prediction_interval(const Scenario& scenario, const std::string& scenario_file, const std::vector<std::string>& overrides,
                             int draws, ProgressStyle style, RunSummary& summary) {
    if (!scenario.profile)
        throw InputError(scenario_file + ": --uncertainty draws a profile's costs, and this scenario names no profile");
    if (!kept_errors(*scenario.profile->fits))
        throw InputError(scenario.profile->file + ": --uncertainty: this profile kept no standard errors of its measured points "
                                                  "(fitted before they were); fit its calibration again with dtsim fit");
    std::vector<std::vector<std::string>> arguments;
    for (int i = 0; i < draws; ++i) {
        std::vector<std::string> args{"simulate", scenario_file, "--quiet", "--draw-profile", std::to_string(i + 1)};
        for (const auto& o : overrides) args.insert(args.end(), {"--set", o});
        arguments.push_back(std::move(args));
    }
    const int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<double> times;
    for (const auto& result : run_children(arguments, jobs, "--json", {style, "uncertainty", "draws"})) {
        if (result.exit_code != 0) throw std::runtime_error("a draw of the profile failed to simulate:\n" + result.error_text);
        times.push_back(nlohmann::json::parse(result.output_json).at("iteration_time_s").get<double>());
    }
    std::sort(times.begin(), times.end());
    summary.uncertainty_draws = draws;
    summary.iteration_time_low_s = percentile(times, 0.05);
    summary.iteration_time_high_s = percentile(times, 0.95);
}

}  // namespace dtsim::cli
