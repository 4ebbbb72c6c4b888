#include "advise_ranking.hpp"

#include <algorithm>
#include <numeric>

namespace dtsim::cli {

std::vector<size_t> rank_options(const std::vector<RankedOption>& options, Objective objective) {
    std::vector<size_t> order(options.size());
    std::iota(order.begin(), order.end(), size_t{0});
    const bool by_time = objective == Objective::time;
    const auto first = [&](size_t i) { return by_time ? options[i].time_s : options[i].cost_usd; };
    const auto second = [&](size_t i) { return by_time ? options[i].cost_usd : options[i].time_s; };
    // Missing values last, then the smaller value first.
    const auto compare = [](const std::optional<double>& a, const std::optional<double>& b) {
        if (a.has_value() != b.has_value()) return a.has_value() ? -1 : 1;
        if (a && *a != *b) return *a < *b ? -1 : 1;
        return 0;
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (const int c = compare(first(a), first(b)); c != 0) return c < 0;
        if (const int c = compare(second(a), second(b)); c != 0) return c < 0;
        return options[a].name < options[b].name;
    });
    return order;
}

std::vector<bool> pareto_frontier(const std::vector<RankedOption>& options) {
    std::vector<bool> frontier(options.size(), false);
    for (size_t i = 0; i < options.size(); ++i) {
        const auto& a = options[i];
        if (!a.time_s || !a.cost_usd) continue;
        frontier[i] = std::none_of(options.begin(), options.end(), [&](const RankedOption& b) {
            if (!b.time_s || !b.cost_usd) return false;
            const bool no_worse = *b.time_s <= *a.time_s && *b.cost_usd <= *a.cost_usd;
            return no_worse && (*b.time_s < *a.time_s || *b.cost_usd < *a.cost_usd);
        });
    }
    return frontier;
}

}  // namespace dtsim::cli
