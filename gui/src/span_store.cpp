#include "span_store.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace dtsim::gui {
namespace {

// Beyond this many visible spans a frame reads level 0 of the pyramid even when its buckets are wider
// than a pixel: slightly blocky, but a frame stays within its budget.
constexpr double kRawSpanBudget = 2e6;

constexpr int kLevels = 13;  // log2(kFinestBuckets) + 1
static_assert(SpanStore::kFinestBuckets == 1 << (kLevels - 1));

// Adds the part of [x0, x1) (in pixels) that falls in each pixel of [0, width): the partly covered end
// pixels directly, the fully covered run between them as +1/-1 steps in `ramp` (integrated once per
// band, so a long span costs as little as a short one). Without a ramp, the run is added pixel by pixel.
void add_interval(double x0, double x1, int width, float* out, float* ramp) {
    if (x1 <= 0 || x0 >= width) return;
    x0 = std::max(x0, 0.0);
    x1 = std::min(x1, static_cast<double>(width));
    const int p0 = static_cast<int>(x0);
    const int p1 = static_cast<int>(x1);
    if (p0 == p1) {
        out[p0] += static_cast<float>(x1 - x0);
        return;
    }
    out[p0] += static_cast<float>(p0 + 1 - x0);
    if (p1 < width) out[p1] += static_cast<float>(x1 - p1);
    if (p0 + 1 >= p1) return;
    if (ramp) {
        ramp[p0 + 1] += 1.0f;
        ramp[p1] -= 1.0f;
    } else {
        for (int p = p0 + 1; p < p1; ++p) out[p] += 1.0f;
    }
}

}  // namespace

void BandCoverage::reset(int width) {
    for (auto& v : per_kind) v.assign(static_cast<size_t>(width), 0.0f);
}

int SpanStore::add_rank(const RankInfo& rank) {
    ranks_.push_back(rank);
    tracks_.resize(ranks_.size() * kKinds);
    return rank_count() - 1;
}

std::uint32_t SpanStore::intern(std::string_view name) {
    auto [it, inserted] = name_ids_.try_emplace(std::string(name), static_cast<std::uint32_t>(names_.size()));
    if (inserted) names_.emplace_back(name);
    return it->second;
}

void SpanStore::add_span(int slot, Lane kind, double start_s, double end_s, std::uint32_t name, int iteration, int index,
                        double bytes) {
    auto& t = track(slot, kind);
    t.start.push_back(start_s);
    t.duration.push_back(static_cast<float>(end_s - start_s));
    t.name.push_back(name);
    t.iteration.push_back(iteration);
    t.index.push_back(index);
    t.bytes.push_back(static_cast<float>(bytes));
    end_s_ = std::max(end_s_, end_s);
    ++span_count_;
}

SpanStore SpanStore::from_run(const Run& run) {
    SpanStore store;
    std::unordered_map<int, int> slot_of_rank;
    for (const auto& r : run.ranks) slot_of_rank[r.rank] = store.add_rank(r);
    for (const auto& s : run.spans) {
        auto it = slot_of_rank.find(s.rank);
        if (it == slot_of_rank.end())
            it = slot_of_rank.emplace(s.rank, store.add_rank({s.rank, 0, "rank " + std::to_string(s.rank)})).first;
        store.add_span(it->second, s.lane, s.start_s, s.end_s, store.intern(s.name), s.iteration, s.index, s.bytes);
    }
    store.finish();
    return store;
}

std::int64_t SpanStore::span_count() const { return span_count_; }

size_t SpanStore::level_offset(int level) {
    return static_cast<size_t>(2 * kFinestBuckets - 2 * (kFinestBuckets >> level));
}

void SpanStore::sort_track(Track& t) {
    if (std::is_sorted(t.start.begin(), t.start.end())) return;
    std::vector<size_t> order(t.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return t.start[a] < t.start[b]; });
    auto permute = [&order](auto& column) {
        auto copy = column;
        for (size_t i = 0; i < order.size(); ++i) column[i] = copy[order[i]];
    };
    permute(t.start);
    permute(t.duration);
    permute(t.name);
    permute(t.iteration);
    permute(t.index);
    permute(t.bytes);
}

void SpanStore::finish() {
    if (end_s_ <= 0) end_s_ = 1e-9;
    bucket_s_ = end_s_ / kFinestBuckets;
    for (auto& t : tracks_) {
        sort_track(t);
        for (float d : t.duration) t.max_duration = std::max(t.max_duration, static_cast<double>(d));
        build_pyramid(t);
    }
    build_group_pyramids();
}

void SpanStore::build_group_pyramids() {
    const int groups = rank_count() / kGroupSize;
    group_pyramids_.assign(static_cast<size_t>(groups * kKinds), std::vector<std::uint16_t>(level_offset(kLevels), 0));
    for (int g = 0; g < groups; ++g)
        for (int kind = 0; kind < kKinds; ++kind) {
            auto& sum = group_pyramids_[static_cast<size_t>(g * kKinds + kind)];
            for (int slot = g * kGroupSize; slot < (g + 1) * kGroupSize; ++slot) {
                const auto& pyramid = track(slot, kind).pyramid;
                for (size_t b = 0; b < sum.size(); ++b) sum[b] = static_cast<std::uint16_t>(sum[b] + pyramid[b]);
            }
        }
}

bool SpanStore::is_whole_group(const int* rank_slots, int count) const {
    if (count < kGroupSize || rank_slots[0] % kGroupSize != 0 || rank_slots[0] / kGroupSize * kGroupSize + kGroupSize > rank_count())
        return false;
    for (int i = 1; i < kGroupSize; ++i)
        if (rank_slots[i] != rank_slots[0] + i) return false;
    return true;
}

void SpanStore::build_pyramid(Track& t) const {
    std::vector<float> fine(kFinestBuckets, 0.0f);
    for (size_t i = 0; i < t.size(); ++i)
        add_interval(t.start[i] / bucket_s_, (t.start[i] + t.duration[i]) / bucket_s_, kFinestBuckets, fine.data(), nullptr);
    t.pyramid.assign(level_offset(kLevels), 0);
    for (int b = 0; b < kFinestBuckets; ++b)
        t.pyramid[static_cast<size_t>(b)] = static_cast<std::uint8_t>(std::min(1.0f, fine[static_cast<size_t>(b)]) * 255 + 0.5f);
    for (int level = 1; level < kLevels; ++level) {
        const auto* below = t.pyramid.data() + level_offset(level - 1);
        auto* here = t.pyramid.data() + level_offset(level);
        for (int b = 0; b < kFinestBuckets >> level; ++b)
            here[b] = static_cast<std::uint8_t>((below[2 * b] + below[2 * b + 1] + 1) / 2);
    }
}

PixelGrid SpanStore::grid(double t0, double t1, int width) const {
    PixelGrid g;
    g.t0 = t0;
    g.width = std::max(width, 1);
    g.pixel_s = (t1 - t0) / g.width;
    int level = -1;
    for (int l = kLevels - 1; l >= 0; --l)
        if (bucket_s_ * (1 << l) <= g.pixel_s) {
            level = l;
            break;
        }
    const double visible_spans = static_cast<double>(span_count_) * (t1 - t0) / end_s_;
    if (level < 0 && visible_spans > kRawSpanBudget) level = 0;
    g.level = level;
    if (level < 0) return g;
    const double bucket_s = bucket_s_ * (1 << level);
    const int buckets = kFinestBuckets >> level;
    g.first_bucket = std::clamp(static_cast<int>(std::floor(t0 / bucket_s)), 0, buckets);
    g.last_bucket = std::clamp(static_cast<int>(std::ceil(t1 / bucket_s)), g.first_bucket, buckets);
    const auto n = static_cast<size_t>(g.last_bucket - g.first_bucket);
    g.bucket_pixel.resize(n);
    g.bucket_split.resize(n);
    // Buckets are at most a pixel wide, so each lies in one pixel or straddles two.
    for (size_t i = 0; i < n; ++i) {
        const double x0 = ((g.first_bucket + static_cast<double>(i)) * bucket_s - t0) / g.pixel_s;
        const double x1 = x0 + bucket_s / g.pixel_s;
        const double pixel = std::floor(x0);
        g.bucket_pixel[i] = static_cast<int>(pixel);
        g.bucket_split[i] = static_cast<float>(std::min(1.0, (pixel + 1 - x0) / (x1 - x0)));
    }
    return g;
}

size_t SpanStore::first_visible(const Track& t, double t0) const {
    // lower_bound(start, t0 - max_duration), searched from where evenly spread spans would put it: a
    // zoomed frame does this for every track, and a plain binary search misses the cache at each step.
    const double target = t0 - t.max_duration;
    const auto& start = t.start;
    const size_t n = start.size();
    if (n == 0 || target <= start.front()) return 0;
    auto guess = static_cast<size_t>(std::clamp(target / end_s_, 0.0, 1.0) * static_cast<double>(n - 1));
    size_t low, high;  // start[low] < target <= start[high] (high == n: past the end)
    if (start[guess] < target) {
        low = guess;
        size_t step = 1;
        while (low + step < n && start[low + step] < target) {
            low += step;
            step *= 2;
        }
        high = std::min(n, low + step);
    } else {
        high = guess;
        size_t step = 1;
        while (high >= step && start[high - step] >= target) {
            high -= step;
            step *= 2;
        }
        low = high >= step ? high - step : 0;
    }
    return static_cast<size_t>(std::lower_bound(start.begin() + static_cast<std::ptrdiff_t>(low),
                                                start.begin() + static_cast<std::ptrdiff_t>(high), target) -
                               start.begin());
}

void SpanStore::accumulate_raw(const Track& t, const PixelGrid& grid, float* out, float* ramp) const {
    const double t1 = grid.t0 + grid.pixel_s * grid.width;
    for (size_t i = first_visible(t, grid.t0); i < t.size() && t.start[i] < t1; ++i)
        add_interval((t.start[i] - grid.t0) / grid.pixel_s, (t.start[i] + t.duration[i] - grid.t0) / grid.pixel_s,
                    grid.width, out, ramp);
}

void SpanStore::accumulate(const int* rank_slots, int slot_count, const PixelGrid& grid, BandCoverage& out) const {
    for (int kind = 0; kind < kKinds; ++kind) {
        float* pixels = out.per_kind[static_cast<size_t>(kind)].data();
        if (grid.level < 0) {
            thread_local std::vector<float> ramp;
            ramp.assign(static_cast<size_t>(grid.width) + 1, 0.0f);
            for (int i = 0; i < slot_count; ++i) accumulate_raw(track(rank_slots[i], kind), grid, pixels, ramp.data());
            float level = 0;
            for (int p = 0; p < grid.width; ++p) pixels[p] += (level += ramp[static_cast<size_t>(p)]);
            continue;
        }
        // Sum the ranks' buckets first (a vectorisable byte sum), then spread the sums over the pixels once.
        const int n = grid.last_bucket - grid.first_bucket;
        thread_local std::vector<std::uint32_t> sums;
        sums.assign(static_cast<size_t>(n), 0);
        const size_t offset = level_offset(grid.level) + static_cast<size_t>(grid.first_bucket);
        for (int i = 0; i < slot_count;) {
            if (is_whole_group(rank_slots + i, slot_count - i)) {
                const std::uint16_t* buckets =
                    group_pyramids_[static_cast<size_t>(rank_slots[i] / kGroupSize * kKinds + kind)].data() + offset;
                for (int b = 0; b < n; ++b) sums[static_cast<size_t>(b)] += buckets[b];
                i += kGroupSize;
                continue;
            }
            const std::uint8_t* buckets = track(rank_slots[i], kind).pyramid.data() + offset;
            for (int b = 0; b < n; ++b) sums[static_cast<size_t>(b)] += buckets[b];
            ++i;
        }
        const double bucket_s = bucket_s_ * (1 << grid.level);
        if (bucket_s <= grid.pixel_s) {
            const auto weight = static_cast<float>(bucket_s / grid.pixel_s / 255.0);
            for (size_t b = 0; b < static_cast<size_t>(n); ++b) {
                const int pixel = grid.bucket_pixel[b];
                const float value = static_cast<float>(sums[b]) * weight;
                if (pixel >= 0 && pixel < grid.width) pixels[pixel] += value * grid.bucket_split[b];
                if (pixel + 1 >= 0 && pixel + 1 < grid.width) pixels[pixel + 1] += value * (1 - grid.bucket_split[b]);
            }
        } else {
            // Buckets wider than a pixel (the raw-span budget was exceeded): each pixel reads its bucket.
            for (int p = 0; p < grid.width; ++p) {
                const int b = static_cast<int>(std::floor((grid.t0 + (p + 0.5) * grid.pixel_s) / bucket_s)) - grid.first_bucket;
                if (b >= 0 && b < n) pixels[p] += static_cast<float>(sums[static_cast<size_t>(b)]) / 255.0f;
            }
        }
    }
}

KindTotals SpanStore::totals(const std::vector<int>& rank_slots, double t0, double t1) const {
    KindTotals totals;
    for (int slot : rank_slots)
        for (int kind = 0; kind < kKinds; ++kind) {
            const auto& t = track(slot, kind);
            for (size_t i = first_visible(t, t0); i < t.size() && t.start[i] < t1; ++i) {
                const double overlap = std::min(t.start[i] + t.duration[i], t1) - std::max(t.start[i], t0);
                if (overlap <= 0) continue;
                ++totals.count[static_cast<size_t>(kind)];
                totals.seconds[static_cast<size_t>(kind)] += overlap;
            }
        }
    return totals;
}

SpanInfo SpanStore::info_of(const Track& t, size_t i, Lane kind) const {
    return {kind, names_[t.name[i]], t.iteration[i], t.index[i], t.start[i], t.start[i] + t.duration[i], t.bytes[i]};
}

bool SpanStore::span_at(int slot, Lane kind, double t, SpanInfo& info) const {
    const auto& tr = track(slot, static_cast<int>(kind));
    bool found = false;
    for (size_t i = first_visible(tr, t); i < tr.size() && tr.start[i] <= t; ++i) {
        if (t >= tr.start[i] + tr.duration[i]) continue;
        info = info_of(tr, i, kind);
        found = true;  // keep the latest-starting (innermost) span
    }
    return found;
}

std::vector<SpanInfo> SpanStore::spans_between(int slot, Lane kind, double t0, double t1, double min_duration_s) const {
    const auto& tr = track(slot, static_cast<int>(kind));
    std::vector<SpanInfo> out;
    for (size_t i = first_visible(tr, t0); i < tr.size() && tr.start[i] < t1; ++i) {
        const double end = tr.start[i] + tr.duration[i];
        if (end <= t0 || tr.duration[i] < min_duration_s) continue;
        out.push_back(info_of(tr, i, kind));
    }
    return out;
}

}  // namespace dtsim::gui
