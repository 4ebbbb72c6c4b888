#include "sample_table.hpp"

#include <cstdio>

namespace dtsim::runtime {
namespace {

using calibrate::ItemKind;

std::string group_of(const calibrate::PlanItem& item) {
    switch (item.kind) {
        case ItemKind::collective: return std::string(to_string(item.op)) + "/" + std::to_string(item.ranks);
        case ItemKind::point_to_point: return std::string(to_string(item.op)) + "/" + std::string(to_string(item.link_class));
        case ItemKind::gemm: return "gemm/" + item.dtype;
        case ItemKind::codec: return "codec/" + std::string(to_string(item.kernel));
        default: return std::string(to_string(item.op));
    }
}

std::string progress(int done, int total) {
    char text[32];
    std::snprintf(text, sizeof text, "[%4d/%d]", done, total);
    return text;
}

}  // namespace

void SampleTable::header(const calibrate::PlanItem& item, const calibrate::Sample& sample) {
    char line[256];
    switch (item.kind) {
        case ItemKind::collective:
        case ItemKind::point_to_point:
            out_ << "#\n# " << to_string(item.op) << ": " << sample.ranks << " ranks on "
                 << sample.nodes << " node(s), " << to_string(sample.link_class.value_or(LinkClass::intra_node))
                 << ", float32" << (item.network_op() == NetworkOp::allreduce || item.network_op() == NetworkOp::reducescatter ? ", sum" : "") << "\n";
            std::snprintf(line, sizeof line, "# %11s %12s %12s %8s %10s %12s %12s %12s %6s\n", "", "size", "count", "type",
                          "mode", "time(us)", "algbw(GB/s)", "busbw(GB/s)", "iters");
            break;
        case ItemKind::gemm:
            out_ << "#\n# gemm " << item.dtype << " on " << sample.device << ", every rank at once\n";
            std::snprintf(line, sizeof line, "# %11s %8s %8s %8s %12s %12s %6s\n", "", "m", "n", "k", "time(us)",
                          "GFLOP/s", "iters");
            break;
        case ItemKind::launch_latency:
            out_ << "#\n# launch_latency on " << sample.device << "\n";
            std::snprintf(line, sizeof line, "# %11s %12s %6s\n", "", "time(us)", "iters");
            break;
        case ItemKind::codec:
            out_ << "#\n# codec " << to_string(item.kernel) << " on " << sample.device
                 << ", every rank at once; bytes: the uncompressed fp32 bucket\n";
            std::snprintf(line, sizeof line, "# %11s %12s %12s %12s %6s\n", "", "bytes", "time(us)", "GB/s", "iters");
            break;
        default:
            out_ << "#\n# " << to_string(item.op) << " on " << sample.device << ", every rank at once\n";
            std::snprintf(line, sizeof line, "# %11s %12s %12s %12s %6s\n", "", "bytes", "time(us)", "GB/s", "iters");
    }
    out_ << line;
}

void SampleTable::row(const calibrate::PlanItem& item, const calibrate::Sample& sample, int done, int total) {
    if (!enabled_) return;
    const std::string group = group_of(item);
    if (group != group_) header(item, sample);
    group_ = group;
    const double time_us = sample.time_s * 1e6;
    const int iterations = sample.iterations;
    char line[256];
    switch (item.kind) {
        case ItemKind::collective:
        case ItemKind::point_to_point:
            std::snprintf(line, sizeof line, "%s %12.0f %12lld %8s %10s %12.2f %12.3f %12.3f %6d\n",
                          progress(done, total).c_str(), item.bytes, calibrate::element_count(sample), "float",
                          std::string(to_string(item.mode)).c_str(), time_us, calibrate::algorithm_bandwidth_gbps(sample),
                          calibrate::bus_bandwidth_gbps(sample), iterations);
            break;
        case ItemKind::gemm:
            std::snprintf(line, sizeof line, "%s %8lld %8lld %8lld %12.2f %12.2f %6d\n", progress(done, total).c_str(), item.m,
                          item.n, item.k, time_us, (sample.flops / sample.time_s) / 1e9, iterations);
            break;
        case ItemKind::launch_latency:
            std::snprintf(line, sizeof line, "%s %12.3f %6d\n", progress(done, total).c_str(), time_us, iterations);
            break;
        default:
            std::snprintf(line, sizeof line, "%s %12.0f %12.2f %12.3f %6d\n", progress(done, total).c_str(), item.bytes,
                          time_us, (sample.bytes / sample.time_s) / 1e9, iterations);
    }
    out_ << line << std::flush;
}

}  // namespace dtsim::runtime
