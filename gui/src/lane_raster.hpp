#pragma once
// Paints bands of lanes into a 32-bit RGB pixel buffer from the span store's per-pixel coverage: a
// single rank tall enough gets one strip per kind; merged or thin rows show the dominant kind. Qt-free.
#include <cstdint>
#include <vector>

#include "span_store.hpp"

namespace dtsim::gui {

struct LaneBand {
    int y0 = 0;  // pixel rows [y0, y1)
    int y1 = 0;
    std::vector<int> rank_slots;
    bool split_by_kind = false;
};

/// `pixels` has `stride` pixels per row and at least max(y1) rows; columns [0, grid.width) are written.
void raster_lane_bands(const SpanStore& store, const PixelGrid& grid, const std::vector<LaneBand>& bands,
                     std::uint32_t* pixels, int stride);

}  // namespace dtsim::gui
