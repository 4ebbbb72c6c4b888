#include "profile_report.hpp"

#include "dtsim/calibrate/fit_verdict.hpp"
#include "dtsim/incast.hpp"
#include "dtsim/units.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

std::string bandwidth(double bytes_per_second) {
    return bytes_per_second >= kUnboundedBytesPerSecond ? "unbounded" : format_bytes_per_second(bytes_per_second);
}

std::string quality_r2(const FitQuality& q) { return q.samples ? fixed(q.r_squared, 4) : "-"; }
std::string quality_median(const FitQuality& q) { return q.samples ? percent(q.median_relative_error) : "-"; }
std::string quality_max(const FitQuality& q) { return q.samples ? percent(q.max_relative_error) : "-"; }

std::string fit_name(const NetworkFit& fit) {
    return std::string(to_string(fit.op)) + "/" + std::string(to_string(fit.mode)) + "/" + std::string(to_string(fit.link_class)) +
           "/" + std::to_string(fit.ranks) + "r";
}

void print_network(std::ostream& out, const Profile& profile) {
    out << "\n  network: t = alpha + bytes / beta, per segment (from its first size)\n";
    TextTable table({"op", "mode", "link class", "ranks", "nodes", "from", "alpha", "beta", "samples", "R²", "median err", "max err",
                     "verdict"},
                    {false, false, false, true, true, true, true, true, true, true, true, true, false});
    const auto verdicts = calibrate::judge_network_fits(profile);
    for (size_t f = 0; f < profile.network.size(); ++f) {
        const auto& fit = profile.network[f];
        bool first = true;
        for (const auto& segment : fit.model.segments) {
            const auto& q = fit.quality;
            if (first)
                table.add_row({std::string(to_string(fit.op)), std::string(to_string(fit.mode)), std::string(to_string(fit.link_class)), std::to_string(fit.ranks),
                               std::to_string(fit.nodes), format_bytes(segment.min_bytes), format_seconds(segment.alpha_s),
                               bandwidth(segment.bytes_per_second), std::to_string(q.samples), quality_r2(q),
                               quality_median(q), quality_max(q), std::string(calibrate::to_string(verdicts[f].rating))});
            else
                table.add_row({"", "", "", "", "", format_bytes(segment.min_bytes), format_seconds(segment.alpha_s),
                               bandwidth(segment.bytes_per_second), "", "", "", "", ""});
            first = false;
        }
    }
    table.print(out, "  ");
    bool header = false;
    for (size_t f = 0; f < profile.network.size(); ++f)
        for (const auto& reason : verdicts[f].reasons) {
            if (!header) out << "\n  why (calibrate/fit_verdict.hpp):\n";
            header = true;
            out << "    " << fit_name(profile.network[f]) << " (" << calibrate::to_string(verdicts[f].rating) << "): " << reason << "\n";
        }
}

void print_incast(std::ostream& out, const IncastCurve& incast) {
    out << "\n  incast: what a receiving NIC keeps of its rate with senders started together (from the all-to-all)\n";
    TextTable table({"senders", "rate kept"}, {true, true});
    for (const auto& [senders, efficiency] : incast.points) table.add_row({std::to_string(senders), percent(efficiency)});
    table.print(out, "  ");
}

// The loaded round trip, over which a flow joining a busy link grows its window (tcp_join.hpp), and beside it the
// idle one: their difference is the queue.
void print_round_trips(std::ostream& out, const Profile& profile) {
    const auto loaded = profile.loaded_round_trip_s();
    if (!loaded) return;
    out << "\n  round trip of a small message between nodes: " << format_seconds(*loaded) << " behind a full queue (loaded_pingpong)";
    if (const auto idle = profile.idle_round_trip_s()) out << ", " << format_seconds(*idle) << " over idle links (pingpong)";
    out << "\n";
}

void print_compute(std::ostream& out, const ComputeProfile& compute) {
    out << "\n  compute on " << compute.device << ": GEMM t = fixed + FLOPs / rate\n";
    TextTable table({"kernel", "fixed", "rate", "samples", "R²", "median err", "max err"},
                    {false, true, true, true, true, true, true});
    for (const auto& gemm : compute.gemm)
        table.add_row({"gemm " + std::string(to_string(gemm.precision)), format_seconds(gemm.fixed_s),
                       format_flops_per_second(gemm.flops_per_second), std::to_string(gemm.quality.samples), quality_r2(gemm.quality),
                       quality_median(gemm.quality), quality_max(gemm.quality)});
    const auto& m = compute.memory_quality;
    table.add_row({"memory (triad)", "", format_bytes_per_second(compute.memory_bytes_per_second), std::to_string(m.samples),
                   quality_r2(m), quality_median(m), quality_max(m)});
    table.add_row({"launch", format_seconds(compute.launch_overhead_s), "", "", "", "", ""});
    table.print(out, "  ");
}

std::string codec_label(const CodecFit& fit) {
    const std::string name(to_string(fit.kernel));
    if (fit.kernel == CodecKernel::topk_decode)
        return name + " (" + percent(fit.ratio) + ", " + std::to_string(fit.blocks) + " blocks)";
    if (fit.kernel == CodecKernel::topk_encode) return name + " (" + percent(fit.ratio) + ")";
    if (is_powersgd(fit.kernel)) return name + " (rank " + std::to_string(fit.rank) + ")";
    return name;
}

void print_codecs(std::ostream& out, const ComputeProfile& compute) {
    out << "\n  gradient compression: t = fixed + fp32 bytes / rate\n";
    TextTable table({"kernel", "fixed", "rate", "samples", "R²", "median err", "max err"},
                    {false, true, true, true, true, true, true});
    for (const auto& fit : compute.codecs) {
        const auto& q = fit.quality;
        table.add_row({codec_label(fit), format_seconds(fit.fixed_s), bandwidth(fit.bytes_per_second),
                       std::to_string(q.samples), quality_r2(q), quality_median(q), quality_max(q)});
    }
    table.print(out, "  ");
}

}  // namespace

void print_profile_report(std::ostream& out, const Profile& profile) {
    out << "profile " << profile.name << " (" << profile.source << ", schema " << profile.schema_version << ")\n";
    if (!profile.description.empty()) out << "  " << profile.description << "\n";
    if (!profile.network.empty()) print_network(out, profile);
    if (const auto incast = inter_node_incast(profile); !incast.empty()) print_incast(out, incast);
    print_round_trips(out, profile);
    if (profile.compute) print_compute(out, *profile.compute);
    if (profile.compute && !profile.compute->codecs.empty()) print_codecs(out, *profile.compute);
    if (!profile.left_out.empty()) {
        out << "\n  left out of the fits (still in the samples file):\n";
        for (const auto& line : profile.left_out) out << "    " << line << "\n";
    }
}

}  // namespace dtsim::cli
