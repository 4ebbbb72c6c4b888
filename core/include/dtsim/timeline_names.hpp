#pragma once
// The span names an LLM layout's timeline uses beyond the passes (docs/llm.md, "Timelines"): every reader
// (summary, traces, GUI) finds a span's dimension and the pipeline's bubbles through these.
#include <optional>
#include <string_view>

#include "dtsim/parallelism.hpp"

namespace dtsim {

/// The wait span of a pipeline stage blocked on a neighbour.
inline constexpr std::string_view kPipelineBubbleSpan = "pipeline bubble";

/// The dimension a communication span's name starts with ("tp allreduce" → tp); none for a plain
/// data-parallel run's "allreduce", a pass or a wait.
std::optional<Dimension> span_dimension(std::string_view name);

}  // namespace dtsim
