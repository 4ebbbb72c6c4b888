#pragma once
// The gathered timelines of every rank become a stored run, exactly as a simulated one: the same span
// names, rank labels and summary (core's summarize), with kind `measured`.
#include "dtsim/run.hpp"
#include "dtsim/scenario.hpp"
#include "span_log.hpp"

namespace dtsim::runtime {

/// A worker's pull from the servers is waiting until the last server holding the bucket starts sending
/// it back, and communication after: the pull span is split there, as the simulator records it.
void split_pull_waits(std::vector<Span>& spans, int workers);

Run make_measured_run(const Scenario& scenario, SpanLog::Gathered gathered, int workers, int servers);

}  // namespace dtsim::runtime
