#pragma once
// Colours of the span kinds (Okabe-Ito, colour-blind safe), shared by the timeline, legend and charts.
#include <array>
#include <cstddef>
#include <cstdint>

namespace dtsim::gui {

constexpr std::array<std::uint32_t, 3> kKindRgb{0xFF0072B2u, 0xFFE69F00u, 0xFFCC79A7u};  // compute, comm, wait
constexpr std::array<const char*, 3> kKindNames{"compute", "communication", "wait"};
constexpr std::uint32_t kLaneBackgroundRgb = 0xFFF7F7F7u;

/// An LLM layout's communication by dimension, indexed by dtsim::Dimension (tp, cp, ep, dp, pp): the
/// Okabe-Ito colours the kinds leave free, so that no dimension reads as compute or waiting.
constexpr std::array<std::uint32_t, 5> kDimensionRgb{0xFFD55E00u, 0xFFF0E442u, 0xFF009E73u, 0xFF56B4E9u, 0xFF000000u};
/// A pipeline bubble: light, so that idle stages stand out from the busy ones at a glance.
constexpr std::uint32_t kBubbleRgb = 0xFFF3DCEAu;

/// The series of a chart (scaling series, advise options), in turn.
constexpr std::array<std::uint32_t, 6> kSeriesRgb{0xFF0072B2u, 0xFFD55E00u, 0xFF009E73u, 0xFFCC79A7u, 0xFF56B4E9u, 0xFFE69F00u};
constexpr std::uint32_t series_rgb(std::size_t series) { return kSeriesRgb[series % kSeriesRgb.size()]; }

}  // namespace dtsim::gui
