#include "lane_raster.hpp"

#include <algorithm>
#include <array>

#include "kind_palette.hpp"

namespace dtsim::gui {
namespace {

constexpr int kShades = 64;
static_assert(kKinds == 3, "the dominant-kind loop names compute, comm and wait");

// Anything present shows at least faintly; a fully covered pixel shows the kind's full colour.
std::uint32_t blend(std::uint32_t colour, float strength) {
    auto channel = [&](int shift) {
        const float bg = static_cast<float>((kLaneBackgroundRgb >> shift) & 0xFF);
        const float fg = static_cast<float>((colour >> shift) & 0xFF);
        return static_cast<std::uint32_t>(bg + (fg - bg) * strength + 0.5f) << shift;
    };
    return 0xFF000000u | channel(16) | channel(8) | channel(0);
}

using ShadeTable = std::array<std::array<std::uint32_t, kShades + 1>, kKinds>;

const ShadeTable& shades() {
    static const ShadeTable table = [] {
        ShadeTable t{};
        for (int k = 0; k < kKinds; ++k)
            for (int s = 0; s <= kShades; ++s)
                t[static_cast<size_t>(k)][static_cast<size_t>(s)] =
                    s == 0 ? kLaneBackgroundRgb
                           : blend(kKindRgb[static_cast<size_t>(k)], 0.35f + 0.65f * static_cast<float>(s) / kShades);
        return t;
    }();
    return table;
}

// `scale` turns a coverage in ranks into shade steps. The pyramid's 8-bit buckets lose up to about 2 % of
// a fully covered pixel: that still shows as full.
inline std::uint32_t shade(const std::array<std::uint32_t, kShades + 1>& table, float coverage, float scale) {
    const float steps = coverage * scale;
    const int s = steps <= 0.13f ? 0 : std::min(std::max(static_cast<int>(steps + 0.5f), 1), kShades);
    return table[static_cast<size_t>(s)];
}

void fill_rows(std::uint32_t* pixels, int stride, int y0, int y1, const std::vector<std::uint32_t>& row) {
    for (int y = y0; y < y1; ++y) std::copy(row.begin(), row.end(), pixels + static_cast<std::ptrdiff_t>(y) * stride);
}

}  // namespace

void raster_lane_bands(const SpanStore& store, const PixelGrid& grid, const std::vector<LaneBand>& bands,
                     std::uint32_t* pixels, int stride) {
    BandCoverage coverage;
    std::vector<std::uint32_t> row(static_cast<size_t>(grid.width));
    for (const auto& band : bands) {
        if (band.y1 <= band.y0 || band.rank_slots.empty()) continue;
        coverage.reset(grid.width);
        store.accumulate(band.rank_slots.data(), static_cast<int>(band.rank_slots.size()), grid, coverage);
        const float scale = kShades * 1.02f / static_cast<float>(band.rank_slots.size());
        const auto& table = shades();
        if (band.split_by_kind) {
            // One strip per kind, so overlapping compute and communication are both visible.
            for (int k = 0; k < kKinds; ++k) {
                const auto& c = coverage.per_kind[static_cast<size_t>(k)];
                const auto& kind_shades = table[static_cast<size_t>(k)];
                for (int x = 0; x < grid.width; ++x) row[static_cast<size_t>(x)] = shade(kind_shades, c[static_cast<size_t>(x)], scale);
                const auto [top, bottom] = band.kind_strip(k);
                fill_rows(pixels, stride, top, bottom, row);
            }
            continue;
        }
        const float* compute = coverage.per_kind[0].data();
        const float* comm = coverage.per_kind[1].data();
        const float* wait = coverage.per_kind[2].data();
        for (int x = 0; x < grid.width; ++x) {
            int dominant = comm[x] > compute[x] ? 1 : 0;
            float value = dominant ? comm[x] : compute[x];
            if (wait[x] > value) {
                dominant = 2;
                value = wait[x];
            }
            row[static_cast<size_t>(x)] = shade(table[static_cast<size_t>(dominant)], value, scale);
        }
        fill_rows(pixels, stride, band.y0, band.y1, row);
    }
}

}  // namespace dtsim::gui
