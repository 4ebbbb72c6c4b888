#pragma once
// How `dtsim advise` ranks its options and marks the Pareto frontier of time-to-train against cost. Pure
// functions, tested without simulating.
#include <optional>
#include <string>
#include <vector>

#include "dtsim/name_table.hpp"

namespace dtsim::cli {

enum class Objective { time, cost, tokens_per_dollar };
inline constexpr auto kObjectiveNames = make_name_table(std::pair{Objective::time, "time"}, std::pair{Objective::cost, "cost"},
                                                        std::pair{Objective::tokens_per_dollar, "tokens-per-dollar"});

/// One option's result: its name, time-to-train and cost (none where the option has no price or no
/// configuration that runs).
struct RankedOption {
    std::string name;
    std::optional<double> time_s;
    std::optional<double> cost_usd;
};

/// Indices of `options` in ranking order: by time, or by cost (the same order for tokens per dollar with
/// one training target); options without the value last; ties by the other value, then by name.
std::vector<size_t> rank_options(const std::vector<RankedOption>& options, Objective objective);

/// Whether each option is on the Pareto frontier of (time, cost): no other option is at least as good in
/// both and better in one. An option without both values is not.
std::vector<bool> pareto_frontier(const std::vector<RankedOption>& options);

}  // namespace dtsim::cli
