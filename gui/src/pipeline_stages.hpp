#pragma once
// Which pipeline stage each rank of a run belongs to, from the LLM layout of the scenario it ran
// (docs/llm.md, "Layout"): the timeline groups its lanes by stage. Qt-free.
#include <vector>

#include "dtsim/run.hpp"
#include "span_store.hpp"

namespace dtsim::gui {

/// The stage of each span store slot; empty when the run's scenario has no LLM layout, cannot be read
/// back, or does not place every rank of the store.
std::vector<int> pipeline_stages(const Run& run, const SpanStore& store);

}  // namespace dtsim::gui
