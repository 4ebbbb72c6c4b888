#pragma once
// What `dtsim plan` prints: how many configurations were enumerated, refused, dropped for memory, pruned
// and simulated, and the ranked table of the simulated ones.
#include <optional>
#include <ostream>

#include "plan_search.hpp"

namespace dtsim::cli {

void print_plan_counts(std::ostream& out, const PlanRequest& request, const PlanOutcome& outcome);
/// The `top` fastest: degrees and schedule, iteration time, tokens/s, MFU, memory per GPU, exposed
/// communication per dimension, and the analytical estimate beside the simulated time; with a price per
/// GPU-hour, the cost of an iteration and the tokens per dollar.
void print_plan_table(std::ostream& out, const PlanOutcome& outcome, int top, std::optional<double> usd_per_gpu_hour);

}  // namespace dtsim::cli
