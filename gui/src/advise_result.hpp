#pragma once
// What `dtsim advise --json` wrote, as the Advise view shows it: every simulated configuration of every
// cluster option with its figures, time-to-train, cost, stored run and place on the Pareto frontier.
// Qt-free.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dtsim/parallelism.hpp"

namespace dtsim::gui {

struct AdvisePoint {
    size_t option = 0;  // index into AdviseResult::options
    std::string configuration;  // "tp2 sp dp4 mb1×8 zero1 none"
    std::optional<std::int64_t> run_id;  // none where advise stored no runs (no --db)
    int tensor = 1;
    int pipeline = 1;
    int context = 1;
    int expert = 1;
    int data = 1;
    double iteration_time_s = 0;
    double tokens_per_s = 0;
    double mfu = 0;
    double memory_per_gpu_bytes = 0;
    std::array<double, kDimensions> exposed_s{};  // by Dimension
    double time_to_train_s = 0;
    std::optional<double> cost_usd;  // none where the option has no price
    std::optional<double> owned_usd;  // owning the cluster: none without a server price (or from an older dtsim)
    bool owned_complete = false;      // every part priced and powered; else owned_usd is a lower bound
    bool pareto = false;
};

struct AdviseResult {
    std::vector<std::string> options;  // the options' names, in the study's order
    std::vector<AdvisePoint> points;   // every simulated configuration, option by option
    int failed = 0;                    // configurations whose simulation failed (not points)
};

/// Throws InputError naming the file, the option and configuration, the key and what was expected.
AdviseResult read_advise_json(const std::string& path);

}  // namespace dtsim::gui
