#pragma once
// The gathered timelines of every rank become a stored run, exactly as a simulated one: the same span
// names, rank labels and summary (core's summarize), with kind `measured`.
#include "dtsim/cost_model.hpp"
#include "dtsim/run.hpp"
#include "dtsim/scenario.hpp"
#include "span_log.hpp"

namespace dtsim::runtime {

Run make_measured_run(const Scenario& scenario, const CostModel& costs, SpanLog::Gathered gathered, int workers, int servers);

}  // namespace dtsim::runtime
