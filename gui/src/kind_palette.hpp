#pragma once
// Colours of the span kinds (Okabe-Ito, colour-blind safe), shared by the timeline, legend and charts.
#include <array>
#include <cstdint>

namespace dtsim::gui {

constexpr std::array<std::uint32_t, 3> kKindRgb{0xFF0072B2u, 0xFFE69F00u, 0xFFCC79A7u};  // compute, comm, wait
constexpr std::array<const char*, 3> kKindNames{"compute", "communication", "wait"};
constexpr std::uint32_t kLaneBackgroundRgb = 0xFFF7F7F7u;

}  // namespace dtsim::gui
