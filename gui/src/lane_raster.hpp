#pragma once
// Paints bands of lanes into a 32-bit RGB pixel buffer from the span store's per-pixel coverage: a
// single rank tall enough gets one strip per kind; merged or thin rows show the dominant kind. Qt-free.
#include <cstdint>
#include <utility>
#include <vector>

#include "span_store.hpp"

namespace dtsim::gui {

struct LaneBand {
    int y0 = 0;  // pixel rows [y0, y1)
    int y1 = 0;
    std::vector<int> rank_slots;
    bool split_by_kind = false;
    /// The pixel rows [first, second) of a kind's strip when the band is split by kind.
    std::pair<int, int> kind_strip(int kind) const {
        const int height = y1 - y0;
        return {y0 + height * kind / kKinds, y0 + height * (kind + 1) / kKinds};
    }
};

/// `pixels` has `stride` pixels per row and at least max(y1) rows; columns [0, grid.width) are written.
void raster_lane_bands(const SpanStore& store, const PixelGrid& grid, const std::vector<LaneBand>& bands,
                     std::uint32_t* pixels, int stride);

}  // namespace dtsim::gui
