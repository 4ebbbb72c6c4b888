#pragma once
// How the timeline marks an LLM layout's spans (docs/llm.md, "Timelines"): each pass by its letter and
// microbatch ("F3", "B3", "R3"), each communication in its dimension's colour, pipeline bubbles in a
// light colour of their own. Qt-free.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtsim/parallelism.hpp"
#include "span_store.hpp"

namespace dtsim::gui {

constexpr std::string_view kBubbleSpanName = "pipeline bubble";

/// "F3", "B3" or "R3" for a forward, backward or recompute pass of microbatch 3; empty for other spans.
std::string pass_label(std::string_view name, int microbatch);
/// The dimension a communication span's name starts with ("tp allreduce": tp), if any.
std::optional<Dimension> comm_dimension(std::string_view name);

/// A span drawn over its kind's strip of a lane: pixels [x0, x1) of the frame.
struct SpanMark {
    int x0 = 0;
    int x1 = 0;
    Lane kind = Lane::compute;
    std::uint32_t rgb = 0;
    std::string label;  // a pass's, where it fits
};

/// One rank's marks in the frame [t0, t0 + width · pixel_s), for spans at least a pixel wide: passes whose
/// label fits at `char_px` pixels per character, communication with a dimension, bubbles.
std::vector<SpanMark> llm_span_marks(const SpanStore& store, int slot, double t0, double pixel_s, int width, int char_px);

}  // namespace dtsim::gui
