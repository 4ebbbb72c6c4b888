#pragma once
// The timeline's span store: per rank and kind (compute, comm, wait) a track of spans sorted by start,
// as compact columns with interned names, plus a precomputed coverage pyramid per track (each level
// halves the number of time buckets). A frame then costs about one bucket per pixel, not one span:
// see /work/shared/reference/gui-and-code-style.md §1.4 (Perfetto-style mipmaps). Qt-free.
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
    int addRank(const RankInfo& rank);
    std::uint32_t intern(std::string_view name);
    void addSpan(int slot, Lane kind, double start_s, double end_s, std::uint32_t name, int iteration, int index,
                 double bytes);
    /// Sorts the tracks and builds the coverage pyramids; call once, after the last addSpan.
    void finish();

    static SpanStore fromRun(const Run& run);

    int rankCount() const { return static_cast<int>(m_ranks.size()); }
    const RankInfo& rank(int slot) const { return m_ranks[static_cast<size_t>(slot)]; }
    std::int64_t spanCount() const;
    double endTime() const { return m_end_s; }

    PixelGrid grid(double t0, double t1, int width) const;
    /// Adds the coverage of the given slots' tracks to `out` (sized to grid.width).
    void accumulate(const int* rank_slots, int slot_count, const PixelGrid& grid, BandCoverage& out) const;
    /// Exact totals of the spans' time inside [t0, t1) over the given slots.
    KindTotals totals(const std::vector<int>& rank_slots, double t0, double t1) const;
    /// The span of that kind covering time t on that rank, if any.
    bool spanAt(int slot, Lane kind, double t, SpanInfo& info) const;

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
    Track& track(int slot, Lane kind) { return m_tracks[static_cast<size_t>(slot * kKinds + static_cast<int>(kind))]; }
    const Track& track(int slot, int kind) const { return m_tracks[static_cast<size_t>(slot * kKinds + kind)]; }
    static size_t levelOffset(int level);
    static void sortTrack(Track& t);
    void buildPyramid(Track& t) const;
    void accumulateRaw(const Track& t, const PixelGrid& grid, float* out, float* ramp) const;
    void buildGroupPyramids();
    bool isWholeGroup(const int* rank_slots, int count) const;
    size_t firstVisible(const Track& t, double t0) const;

    std::vector<RankInfo> m_ranks;
    std::vector<Track> m_tracks;
    std::vector<std::vector<std::uint16_t>> m_group_pyramids;  // per group and kind, levels as in Track
    std::vector<std::string> m_names;
    std::unordered_map<std::string, std::uint32_t> m_name_ids;
    double m_end_s = 0;
    double m_bucket_s = 1;  // width of a level-0 bucket
    std::int64_t m_span_count = 0;
};

}  // namespace dtsim::gui
