#pragma once
// How much of a GPU a matrix multiply of a given shape keeps busy (docs/llm.md, "GEMM shape").
namespace dtsim {

/// C (rows × columns) = A (rows × depth) · B (depth × columns): the output is cut in tiles, one per SM at a
/// time, and every tile runs over the whole depth.
struct GemmShape {
    double rows = 0;
    double columns = 0;
    double depth = 0;
};

/// The output tile of cuBLAS's most efficient large-GEMM kernels, 256 × 128 in either orientation (NVIDIA,
/// "Matrix Multiplication Background User's Guide", §2.3 and §3; docs/hardware-sources.md §7, "GEMM shape").
inline constexpr double kGemmTileLong = 256;
inline constexpr double kGemmTileShort = 128;

/// Each tile's work that does not grow with the depth (filling its load pipeline, storing its output), as
/// many depth elements' worth of main loop: fitted on one H100's per-shape GEMMs, the same for every GPU
/// (docs/hardware-sources.md §7, "GEMM shape").
inline constexpr double kGemmTileFixedDepth = 256;

/// The GEMM the GPU presets' efficiencies were measured on (8192³: docs/hardware-sources.md §5, §7).
inline constexpr GemmShape kReferenceGemm{8192, 8192, 8192};

/// The fraction of the SMs' time that computes useful outputs: rows·columns over the tile slots of every
/// wave (waves = ⌈tiles / SMs⌉, each tile a full 256 × 128 whatever of it lies outside C; the tile
/// orientation that wastes less), times depth / (depth + kGemmTileFixedDepth). Tile, wave and depth
/// quantization together. A GEMM of fewer tiles than SMs splits its depth in k = ⌊SMs / tiles⌋ slices
/// (split-K, as cuBLAS and cuDNN's weight-gradient kernels do): k·tiles slots of one wave, each slice over
/// depth / k.
double gemm_tile_utilisation(const GemmShape& shape, int streaming_multiprocessors);

/// The shape's rate relative to the reference GEMM's on the same GPU: utilisation(shape) ÷ utilisation(8192³).
/// A preset's GEMM efficiency is the reference's, so base efficiency × this is the shape's; 1 where the SM
/// count is unknown (0) or the shape is not given (no rows).
double gemm_shape_factor(const GemmShape& shape, int streaming_multiprocessors);

}  // namespace dtsim
