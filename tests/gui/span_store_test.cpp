#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>

#include "gui_fixtures.hpp"
#include "lane_raster.hpp"
#include "span_store.hpp"
#include "time_axis.hpp"

namespace span_store_test {

using namespace dtsim;
using namespace dtsim::gui;
using dtsim::gui::test::kUnit;

namespace {

float sum(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0f); }

}  // namespace

TEST_CASE("gui::SpanStore: totals over an area are the clipped span times", "[gui]") {
    const auto store = SpanStore::from_run(test::synthetic_run(2, 2, RunKind::predicted));
    REQUIRE(store.rank_count() == 4);
    REQUIRE(store.span_count() == 4 * 3 * 3 + 2 * 3);
    REQUIRE(store.end_time() == 48 * kUnit);

    SECTION("the whole run") {
        const auto all = store.totals({0, 1, 2, 3}, 0, store.end_time());
        CHECK(all.count == std::array<std::int64_t, 3>{24, 12, 6});
        CHECK(all.seconds[0] == 120 * kUnit);
        CHECK(all.seconds[1] == 72 * kUnit);
        CHECK(all.seconds[2] == 12 * kUnit);
    }
    SECTION("a window cutting spans on one rank") {
        const auto part = store.totals({0}, 2 * kUnit, 9 * kUnit);
        CHECK(part.count == std::array<std::int64_t, 3>{2, 1, 0});
        CHECK(part.seconds[0] == 7 * kUnit);
        CHECK(part.seconds[1] == 1 * kUnit);
        CHECK(part.seconds[2] == 0);
    }
}

TEST_CASE("gui::SpanStore: the coverage pyramid and the raw spans agree with the closed form", "[gui]") {
    const auto store = SpanStore::from_run(test::synthetic_run(2, 2, RunKind::predicted));
    const int rank1 = 1;
    BandCoverage coverage;

    SECTION("fully zoomed out reads a pyramid level") {
        const auto grid = store.grid(0, store.end_time(), 48);
        REQUIRE(grid.level >= 0);
        coverage.reset(grid.width);
        store.accumulate(&rank1, 1, grid, coverage);
        // Pixels are one unit wide: 30 units of compute, 18 of communication, 6 of wait.
        CHECK(sum(coverage.per_kind[0]) == Approx(30).margin(0.3));
        CHECK(sum(coverage.per_kind[1]) == Approx(18).margin(0.3));
        CHECK(sum(coverage.per_kind[2]) == Approx(6).margin(0.3));
    }
    SECTION("zoomed in reads the spans themselves") {
        const auto grid = store.grid(0, 16 * kUnit, 1600);
        REQUIRE(grid.level == -1);
        coverage.reset(grid.width);
        store.accumulate(&rank1, 1, grid, coverage);
        CHECK(sum(coverage.per_kind[0]) == Approx(1000).epsilon(1e-5));
        CHECK(sum(coverage.per_kind[1]) == Approx(600).epsilon(1e-5));
        CHECK(coverage.per_kind[2][1500] == Approx(1.0f));  // wait [14,16) units
        CHECK(coverage.per_kind[2][1300] == 0.0f);
    }
}

TEST_CASE("gui::SpanStore: the span under a time", "[gui]") {
    const auto store = SpanStore::from_run(test::synthetic_run(1, 2, RunKind::predicted));
    SpanInfo info;
    REQUIRE(store.span_at(0, Lane::comm, 26 * kUnit, info));
    CHECK(info.name == "allreduce");
    CHECK(info.iteration == 1);
    CHECK(info.start_s == 24 * kUnit);
    CHECK(info.bytes == test::kBucketBytes);
    CHECK_FALSE(store.span_at(0, Lane::wait, 15 * kUnit, info));  // rank 0 never waits
    CHECK(store.span_at(1, Lane::wait, 15 * kUnit, info));
}

TEST_CASE("gui::raster_lane_bands: a split lane shows each kind in its strip", "[gui]") {
    const auto store = SpanStore::from_run(test::synthetic_run(1, 2, RunKind::predicted));
    const auto grid = store.grid(0, 16 * kUnit, 160);  // 10 pixels per unit
    std::vector<std::uint32_t> pixels(160 * 9, 0);
    raster_lane_bands(store, grid, {LaneBand{0, 9, {1}, true}}, pixels.data(), 160);
    const auto at = [&](int x, int y) { return pixels[static_cast<size_t>(y * 160 + x)]; };
    CHECK(at(50, 1) == 0xFF0072B2u);   // compute strip during forward
    CHECK(at(50, 4) == 0xFFF7F7F7u);   // no communication at 5 units
    CHECK(at(120, 4) == 0xFFE69F00u);  // allreduce [8,14)
    CHECK(at(150, 7) == 0xFFCC79A7u);  // wait [14,16) on rank 1
}

TEST_CASE("gui::time_ticks: 1-2-5 steps in a fitting unit", "[gui]") {
    const auto seconds = time_ticks(0, 1, 1000, 100);
    REQUIRE(seconds.size() == 11);
    CHECK(seconds[1].label == "100 ms");
    CHECK(seconds[1].time_s == Approx(0.1));
    const auto micro = time_ticks(0, 48e-6, 480, 100);
    REQUIRE(micro.size() == 5);
    CHECK(micro[1].label == "10 us");
    const auto fine = time_ticks(0.5, 0.5002, 1000, 100);
    REQUIRE(fine.size() >= 2);
    CHECK(fine[1].time_s - fine[0].time_s == Approx(20e-6));
}

TEST_CASE("gui::SpanStore: a band read through rank groups equals the sum of its ranks", "[gui]") {
    const auto store = SpanStore::from_run(test::synthetic_run(2, 8, RunKind::predicted, 1.0));
    const auto grid = store.grid(0, store.end_time(), 100);
    REQUIRE(grid.level >= 0);
    std::vector<int> band(16);
    std::iota(band.begin(), band.end(), 0);
    BandCoverage grouped, single;
    grouped.reset(grid.width);
    single.reset(grid.width);
    store.accumulate(band.data(), 16, grid, grouped);  // two whole groups
    for (int slot : band) store.accumulate(&slot, 1, grid, single);  // one rank at a time
    std::vector<int> unaligned(band.begin() + 1, band.end());  // no whole group
    BandCoverage partial;
    partial.reset(grid.width);
    store.accumulate(unaligned.data(), 15, grid, partial);
    for (size_t k = 0; k < 3; ++k) {
        CAPTURE(k);
        CHECK(sum(grouped.per_kind[k]) == Approx(sum(single.per_kind[k])).epsilon(1e-6));
        CHECK(sum(grouped.per_kind[k]) > 0);
        for (int x = 0; x < grid.width; ++x)
            CHECK(grouped.per_kind[k][static_cast<size_t>(x)] == Approx(single.per_kind[k][static_cast<size_t>(x)]).epsilon(1e-5));
    }
    // Rank 0 never waits; the 15 others' compute is 15/16 of the whole.
    CHECK(sum(partial.per_kind[0]) == Approx(sum(grouped.per_kind[0]) * 15 / 16).epsilon(1e-5));
}

TEST_CASE("gui::SpanStore: totals of uneven, overlapping spans match a brute-force sum", "[gui]") {
    // Spans crowded at the start of the run, some long and overlapping: the search for the first
    // visible span cannot rely on spans being evenly spread.
    SpanStore store;
    store.add_rank({0, 0, "gpu 0"});
    const auto name = store.intern("x");
    std::vector<std::pair<double, double>> spans;
    std::uint32_t seed = 12345;
    auto next = [&seed] { return (seed = seed * 1664525u + 1013904223u) / 4294967296.0; };
    for (int i = 0; i < 2000; ++i) {
        const double start = std::pow(next(), 4) * 100;
        const double end = start + (i % 97 == 0 ? 20 : 0.01 + next() * 0.1);
        spans.emplace_back(start, end);
        store.add_span(0, Lane::comm, start, end, name, 0, i, 0);
    }
    store.finish();
    for (int w = 0; w < 200; ++w) {
        const double t0 = next() * 110 - 5;
        const double t1 = t0 + next() * (w % 2 ? 1 : 30);
        double expected = 0;
        std::int64_t count = 0;
        for (const auto& [s, e] : spans) {
            const double overlap = std::min(e, t1) - std::max(s, t0);
            if (overlap > 0) {
                expected += overlap;
                ++count;
            }
        }
        const auto totals = store.totals({0}, t0, t1);
        CAPTURE(t0, t1);
        CHECK(totals.count[1] == count);
        CHECK(totals.seconds[1] == Approx(expected).margin(1e-9));
    }
}

}  // namespace span_store_test
