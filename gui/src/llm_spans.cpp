#include "llm_spans.hpp"

#include <algorithm>
#include <cmath>

#include "kind_palette.hpp"

namespace dtsim::gui {
namespace {

static_assert(kDimensionRgb.size() == kDimensions, "one colour per dimension");

constexpr int kLabelPaddingPx = 4;

}  // namespace

std::string pass_label(std::string_view name, int microbatch) {
    const char letter = name == "forward" ? 'F' : name == "backward" ? 'B' : name == "recompute" ? 'R' : '\0';
    return letter ? letter + std::to_string(microbatch) : std::string();
}

std::optional<Dimension> comm_dimension(std::string_view name) {
    return kDimensionNames.parse(name.substr(0, name.find(' ')));
}

std::vector<SpanMark> llm_span_marks(const SpanStore& store, int slot, double t0, double pixel_s, int width, int char_px) {
    std::vector<SpanMark> marks;
    const double t1 = t0 + width * pixel_s;
    const auto pixels = [&](const SpanInfo& span) {
        const int x0 = std::clamp(static_cast<int>(std::floor((span.start_s - t0) / pixel_s)), 0, width);
        const int x1 = std::clamp(static_cast<int>(std::ceil((span.end_s - t0) / pixel_s)), 0, width);
        return std::pair{x0, x1};
    };
    for (const auto& span : store.spans_between(slot, Lane::compute, t0, t1, pixel_s)) {
        auto label = pass_label(span.name, span.index);
        const auto [x0, x1] = pixels(span);
        if (label.empty() || x1 - x0 < static_cast<int>(label.size()) * char_px + kLabelPaddingPx) continue;
        marks.push_back({x0, x1, Lane::compute, kKindRgb[static_cast<size_t>(Lane::compute)], std::move(label)});
    }
    for (const auto& span : store.spans_between(slot, Lane::comm, t0, t1, pixel_s))
        if (const auto dimension = comm_dimension(span.name)) {
            const auto [x0, x1] = pixels(span);
            marks.push_back({x0, x1, Lane::comm, kDimensionRgb[static_cast<size_t>(*dimension)], {}});
        }
    for (const auto& span : store.spans_between(slot, Lane::wait, t0, t1, pixel_s))
        if (span.name == kBubbleSpanName) {
            const auto [x0, x1] = pixels(span);
            marks.push_back({x0, x1, Lane::wait, kBubbleRgb, {}});
        }
    return marks;
}

}  // namespace dtsim::gui
