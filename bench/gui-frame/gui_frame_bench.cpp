// bench/gui-frame: paints one frame of a 4096-rank run with about 12 million spans, fully zoomed out and
// zoomed in to 1 % of the run, and prints the times (median of several cold frames each).
#include <QApplication>
#include <QImage>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>

#include "span_store.hpp"
#include "timeline_widget.hpp"

namespace {

using dtsim::Lane;

// 512 nodes x 8 GPUs; per rank 1000 iterations of forward, backward and one all-reduce bucket, with a
// rank-dependent jitter so that lanes differ: 3 spans per iteration, 3000 per rank.
std::shared_ptr<dtsim::gui::SpanStore> make_store(int ranks, int iterations) {
    auto store = std::make_shared<dtsim::gui::SpanStore>();
    const auto forward = store->intern("forward");
    const auto backward = store->intern("backward");
    const auto allreduce = store->intern("allreduce");
    const auto wait = store->intern("wait");
    const double iteration = 0.1;
    for (int r = 0; r < ranks; ++r) {
        const int slot = store->add_rank({r, r / 8, "gpu " + std::to_string(r)});
        const double jitter = 0.002 * ((r * 7919) % 13) / 13.0;
        for (int it = 0; it < iterations; ++it) {
            const double t = it * iteration;
            store->add_span(slot, Lane::compute, t, t + 0.03 + jitter, forward, it, 0, 0);
            store->add_span(slot, Lane::compute, t + 0.03 + jitter, t + 0.07 + jitter, backward, it, 0, 0);
            if (it % 2 == 0) store->add_span(slot, Lane::comm, t + 0.06, t + 0.095, allreduce, it, 0, 25e6);
            else store->add_span(slot, Lane::wait, t + 0.08 + jitter, t + 0.095, wait, it, 0, 0);
        }
    }
    store->finish();
    return store;
}

double thread_cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

struct FrameTimes {
    double wall_ms;
    double cpu_ms;  // this thread's CPU time: what the frame costs when the machine is shared
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

FrameTimes median_frame(dtsim::gui::TimelineWidget& timeline, double t0, double t1, int frames) {
    QImage image(timeline.size(), QImage::Format_RGB32);
    std::vector<double> wall, cpu;
    for (int i = 0; i < frames; ++i) {
        timeline.set_visible_range(t0, t1);
        timeline.invalidate_lanes();  // every frame is cold: no cached lane image
        const auto start = std::chrono::steady_clock::now();
        const double cpu_start = thread_cpu_ms();
        timeline.render(&image);
        cpu.push_back(thread_cpu_ms() - cpu_start);
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return {median(wall), median(cpu)};
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int ranks = argc > 1 ? std::atoi(argv[1]) : 4096;
    const int iterations = argc > 2 ? std::atoi(argv[2]) : 1000;
    const auto build_start = std::chrono::steady_clock::now();
    auto store = make_store(ranks, iterations);
    const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - build_start).count();

    dtsim::gui::TimelineWidget timeline;
    timeline.resize(1600, 1000);
    timeline.set_store(store);
    const double end = store->end_time();
    const auto full = median_frame(timeline, 0, end, 15);
    const auto zoomed = median_frame(timeline, 0.45 * end, 0.46 * end, 15);
    std::printf("ranks %d\nspans %lld\nbuild_s %.2f\nframe_full_wall_ms %.1f\nframe_full_cpu_ms %.1f\n"
                "frame_zoom1pct_wall_ms %.1f\nframe_zoom1pct_cpu_ms %.1f\n",
                ranks, static_cast<long long>(store->span_count()), build_s, full.wall_ms, full.cpu_ms, zoomed.wall_ms, zoomed.cpu_ms);
    return 0;
}
