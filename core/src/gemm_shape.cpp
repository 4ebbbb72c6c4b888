#include "dtsim/gemm_shape.hpp"

#include <algorithm>
#include <cmath>

namespace dtsim {

namespace {

// A dimension shorter than the short tile side runs in a tile cut to it, in the Tensor Cores' steps of 16
// (a GEMV-like product does not pay for 128 columns).
double cut(double side, double extent) { return extent < kGemmTileShort ? std::min(side, std::ceil(extent / 16) * 16) : side; }

// One tile orientation's utilisation. Fewer tiles than SMs split the depth over the idle SMs (split-K): as
// many slices per tile as fit in one wave, each slice paying the tile's fixed work over its share of the depth.
double tiles_utilisation(const GemmShape& shape, double sms, double full_tile_rows, double full_tile_columns) {
    const double tile_rows = cut(full_tile_rows, shape.rows), tile_columns = cut(full_tile_columns, shape.columns);
    const double tiles = std::ceil(shape.rows / tile_rows) * std::ceil(shape.columns / tile_columns);
    const double slices = std::max(1.0, std::floor(sms / tiles));
    const double slots = std::ceil(tiles * slices / sms) * sms * tile_rows * tile_columns;
    const double slice_depth = shape.depth / slices;
    return shape.rows * shape.columns * slices / slots * slice_depth / (slice_depth + kGemmTileFixedDepth);
}

}  // namespace

double gemm_tile_utilisation(const GemmShape& shape, int streaming_multiprocessors) {
    const double sms = streaming_multiprocessors;
    return std::max(tiles_utilisation(shape, sms, kGemmTileLong, kGemmTileShort),
                    tiles_utilisation(shape, sms, kGemmTileShort, kGemmTileLong));
}

double gemm_shape_factor(const GemmShape& shape, int streaming_multiprocessors) {
    if (streaming_multiprocessors <= 0 || shape.rows <= 0 || shape.columns <= 0 || shape.depth <= 0) return 1;
    return gemm_tile_utilisation(shape, streaming_multiprocessors) /
           gemm_tile_utilisation(kReferenceGemm, streaming_multiprocessors);
}

}  // namespace dtsim
