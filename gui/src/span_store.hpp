#pragma once
// The timeline's span store: per rank and kind (compute, comm, wait) a track of spans sorted by start,
// as compact columns with interned names, plus a precomputed coverage pyramid per track (each level
// halves the number of time buckets). A frame then costs about one bucket per pixel, not one span:
// see docs/architecture.md, "GUI timeline" (Perfetto-style mipmaps). Qt-free.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dtsim/run.hpp"

namespace dtsim::gui {

constexpr int kKinds = 3;  // indexes are the values of dtsim::Lane

struct KindTotals {
    std::array<std::int64_t, kKinds> count{};
    std::array<double, kKinds> seconds{};  // span time inside the selection, summed over ranks
};

/// One span as the tooltip shows it.
struct SpanInfo {
    Lane kind = Lane::compute;
    std::string_view name;
    int iteration = 0;
    int index = 0;
    double start_s = 0;
    double end_s = 0;
    double bytes = 0;
};

/// How a frame maps time onto pixels, and from which level of the pyramid (or the raw spans) it reads.
struct PixelGrid {
    double t0 = 0;
    double pixel_s = 1;
    int width = 0;
    int level = -1;                 // -1: raw spans
    int first_bucket = 0;           // buckets of `level` that the frame reads
    int last_bucket = 0;            // exclusive
    std::vector<int> bucket_pixel;    // per bucket read: the pixel where it starts (-1: before the frame)
    std::vector<float> bucket_split;  // the part of it in that pixel; the rest is in the next one
};

/// Coverage of one band of lanes, per pixel and kind, in ranks × fraction of the pixel's time.
struct BandCoverage {
    std::array<std::vector<float>, kKinds> per_kind;
    void reset(int width);
};

class SpanStore {
public:
    static constexpr int kFinestBuckets = 4096;
    /// Aligned runs of this many slots also have a summed pyramid, so a band of merged lanes reads one
    /// group instead of each of its ranks (a frame of a large run is bound by these reads).
    static constexpr int kGroupSize = 8;

    /// Ranks must be added before their spans; a rank is addressed by its slot (order of addition).
    int add_rank(const RankInfo& rank);
    std::uint32_t intern(std::string_view name);
    void add_span(int slot, Lane kind, double start_s, double end_s, std::uint32_t name, int iteration, int index,
                 double bytes);
    /// Sorts the tracks and builds the coverage pyramids; call once, after the last add_span.
    void finish();

    static SpanStore from_run(const Run& run);

    int rank_count() const { return static_cast<int>(ranks_.size()); }
    const RankInfo& rank(int slot) const { return ranks_[static_cast<size_t>(slot)]; }
    std::int64_t span_count() const;
    double end_time() const { return end_s_; }

    PixelGrid grid(double t0, double t1, int width) const;
    /// Adds the coverage of the given slots' tracks to `out` (sized to grid.width).
    void accumulate(const int* rank_slots, int slot_count, const PixelGrid& grid, BandCoverage& out) const;
    /// Exact totals of the spans' time inside [t0, t1) over the given slots.
    KindTotals totals(const std::vector<int>& rank_slots, double t0, double t1) const;
    /// The span of that kind covering time t on that rank, if any.
    bool span_at(int slot, Lane kind, double t, SpanInfo& info) const;
    /// The spans of that kind on that rank overlapping [t0, t1) and at least `min_duration_s` long, by start.
    std::vector<SpanInfo> spans_between(int slot, Lane kind, double t0, double t1, double min_duration_s) const;

private:
    struct Track {
        std::vector<double> start;
        std::vector<float> duration;
        std::vector<std::uint32_t> name;
        std::vector<std::int32_t> iteration;
        std::vector<std::int32_t> index;
        std::vector<float> bytes;
        double max_duration = 0;
        std::vector<std::uint8_t> pyramid;  // level 0 (kFinestBuckets buckets), then level 1, ...
        size_t size() const { return start.size(); }
    };
    Track& track(int slot, Lane kind) { return tracks_[static_cast<size_t>(slot * kKinds + static_cast<int>(kind))]; }
    const Track& track(int slot, int kind) const { return tracks_[static_cast<size_t>(slot * kKinds + kind)]; }
    static size_t level_offset(int level);
    static void sort_track(Track& t);
    void build_pyramid(Track& t) const;
    void accumulate_raw(const Track& t, const PixelGrid& grid, float* out, float* ramp) const;
    void build_group_pyramids();
    bool is_whole_group(const int* rank_slots, int count) const;
    size_t first_visible(const Track& t, double t0) const;
    SpanInfo info_of(const Track& t, size_t i, Lane kind) const;

    std::vector<RankInfo> ranks_;
    std::vector<Track> tracks_;
    std::vector<std::vector<std::uint16_t>> group_pyramids_;  // per group and kind, levels as in Track
    std::vector<std::string> names_;
    std::unordered_map<std::string, std::uint32_t> name_ids_;
    double end_s_ = 0;
    double bucket_s_ = 1;  // width of a level-0 bucket
    std::int64_t span_count_ = 0;
};

}  // namespace dtsim::gui
