#include "dtsim/calibrate/profile_fitter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "dtsim/calibrate/environment.hpp"
#include "dtsim/calibrate/fitting.hpp"
#include "dtsim/calibrate/sample_estimate.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/median.hpp"

namespace dtsim::calibrate {
namespace {

using NetworkKey = std::tuple<NetworkOp, TimingMode, LinkClass, int, int>;  // op, mode, link class, ranks, nodes

// Fits are listed by the names of their op and mode, as profiles have always listed them.
struct ByNames {
    static auto named(const NetworkKey& key) {
        const auto& [op, mode, link_class, ranks, nodes] = key;
        return std::tuple(to_string(op), to_string(mode), link_class, ranks, nodes);
    }
    bool operator()(const NetworkKey& a, const NetworkKey& b) const { return named(a) < named(b); }
};

size_t distinct_sizes(const std::vector<Observation>& observations) {
    std::set<double> sizes;
    for (const auto& o : observations) sizes.insert(o.x);
    return sizes.size();
}


// A sample's measured point: the mean of its timed iterations other than stalls, with its standard error
// (sample_estimate.hpp); a sample written without them, its time and no error.
struct PointTime {
    double seconds = 0;
    double error_s = 0;
    int stalls = 0;
};

PointTime point_time(const Sample& s) {
    if (s.iteration_times_s.empty()) return {s.time_s, 0, 0};
    const auto estimate = estimate_sample(s.iteration_times_s);
    return {estimate.mean_s, estimate.standard_error_s, estimate.stalls};
}

// A group's samples: their medians, which the piecewise model is fitted on (robust to outliers), and per
// size the means of their timed iterations, stalls left out, which the profile keeps as the measured
// points: a training iteration's time is a sum of collective times, and the expectation of a sum is the
// sum of the means. Timings are skewed to the right (see docs/fidelity.md, "Measurements behind the
// models"); a stall of one iteration in a few is not part of what a collective costs.
using PointTimes = std::map<double, std::vector<PointTime>>;  // bytes -> each sample's
struct NetworkGroup {
    std::vector<Observation> observations;
    PointTimes mean_times;
};

/// The map orders the fits by (op, mode, link class, ranks, nodes), so profiles are deterministic.
std::map<NetworkKey, NetworkGroup, ByNames> network_groups(const std::vector<Sample>& samples) {
    std::map<NetworkKey, NetworkGroup, ByNames> groups;
    for (const auto& s : samples) {
        const auto* op = std::get_if<NetworkOp>(&s.op);
        if (!op) continue;
        if (!s.link_class)
            throw InputError("sample '" + s.key + "': network op '" + std::string(to_string(*op)) + "' without a link_class");
        // A one-rank "collective" moves nothing between ranks: there is no network cost to fit.
        if (s.ranks < 2) continue;
        auto& group = groups[{*op, s.mode, *s.link_class, s.ranks, s.nodes}];
        group.observations.push_back({s.bytes, s.time_s});
        group.mean_times[s.bytes].push_back(point_time(s));
    }
    return groups;
}

// One (bytes, seconds) per size, the median over its samples of their mean times, sorted by size, with its
// standard error: the samples' own errors combined, or the samples' scatter where that is larger.
template <typename Fit>
void set_measured_points(const PointTimes& mean_times, Fit& fit) {
    for (const auto& [bytes, times] : mean_times) {
        std::vector<double> means;
        double own = 0, sum = 0;
        for (const auto& t : times) {
            means.push_back(t.seconds);
            own += t.error_s * t.error_s;
            sum += t.seconds;
        }
        const auto n = static_cast<double>(times.size());
        double scatter = 0;
        for (double m : means) scatter += (m - sum / n) * (m - sum / n);
        const double between = n > 1 ? std::sqrt(scatter / (n - 1) / n) : 0;
        fit.measured.emplace_back(bytes, median(means));
        fit.measured_error_s.push_back(std::max(std::sqrt(own) / n, between));
    }
}

int stalls_in(const PointTimes& mean_times) {
    int stalls = 0;
    for (const auto& [bytes, times] : mean_times)
        for (const auto& t : times) stalls += t.stalls;
    return stalls;
}

// A size whose time exceeds both the next larger size's and 1.5 times the next smaller size's was disturbed while it
// was timed (a retransmission timeout, a preempted rank): fewer bytes over the same path cannot take longer than more,
// and a step up to a slower protocol stays up at the sizes after it. Such sizes are left out of the fit and the
// measured points, and named in `left_out` (see docs/fidelity.md, "Measurements behind the models").
constexpr double kDisturbedOverSmaller = 1.5;

void leave_out_disturbed(const NetworkKey& key, NetworkGroup& group, std::vector<std::string>& left_out) {
    std::vector<std::pair<double, double>> sizes;  // bytes, median time
    std::map<double, std::vector<double>> times;
    for (const auto& o : group.observations) times[o.x].push_back(o.seconds);
    for (const auto& [bytes, seconds] : times) sizes.emplace_back(bytes, median(seconds));
    std::set<double> disturbed;
    for (size_t i = 1; i + 1 < sizes.size(); ++i)
        if (sizes[i].second > sizes[i + 1].second && sizes[i].second > kDisturbedOverSmaller * sizes[i - 1].second) {
            disturbed.insert(sizes[i].first);
            const auto& [op, mode, link_class, ranks, nodes] = key;
            char line[256];
            std::snprintf(line, sizeof line, "%s/%s/%s/%dr at %.0f B: %.3g ms, longer than at %.0f B (%.3g ms): disturbed while timed",
                          std::string(to_string(op)).c_str(), std::string(to_string(mode)).c_str(),
                          std::string(to_string(link_class)).c_str(), ranks, sizes[i].first,
                          sizes[i].second * 1e3, sizes[i + 1].first, sizes[i + 1].second * 1e3);
            left_out.emplace_back(line);
        }
    std::erase_if(group.observations, [&](const Observation& o) { return disturbed.count(o.x) > 0; });
    for (double bytes : disturbed) group.mean_times.erase(bytes);
}

std::vector<NetworkFit> fit_network(const std::vector<Sample>& samples, std::vector<std::string>& left_out) {
    std::vector<NetworkFit> fits;
    for (auto& [key, group] : network_groups(samples)) {
        leave_out_disturbed(key, group, left_out);
        const auto& observations = group.observations;
        if (distinct_sizes(observations) < 2) continue;  // one size gives no slope: nothing to fit
        NetworkFit fit;
        std::tie(fit.op, fit.mode, fit.link_class, fit.ranks, fit.nodes) = key;
        fit.model = fit_piecewise_alpha_beta(observations);
        fit.quality = evaluate_fit(observations, [&fit](double bytes) { return fit.model.seconds(bytes); });
        set_measured_points(group.mean_times, fit);
        fit.stalls = stalls_in(group.mean_times);
        fits.push_back(std::move(fit));
    }
    return fits;
}

Precision precision_of(const Sample& sample) {
    if (const auto precision = kGemmDtypeNames.parse(sample.dtype)) return *precision;
    throw InputError("sample '" + sample.key + "': gemm dtype '" + sample.dtype + "' is not one of " +
                     kGemmDtypeNames.choices());
}

std::string device_of(const std::vector<const Sample*>& compute) {
    const std::string& device = compute.front()->device;
    // A profile describes one kind of device; mixing two would fit neither.
    for (const auto* s : compute)
        if (s->device != device)
            throw InputError("compute samples come from two devices, '" + device + "' and '" + s->device +
                             "' (sample '" + s->key + "'); calibrate one kind of device per profile");
    return device;
}

std::vector<GemmFit> fit_gemms(const std::vector<const Sample*>& compute) {
    std::map<Precision, std::vector<Observation>> groups;
    for (const auto* s : compute)
        if (s->op == CalibrationOp{ComputeOp::gemm}) groups[precision_of(*s)].push_back({s->flops, s->time_s});
    std::vector<GemmFit> fits;
    for (const auto& [precision, observations] : groups)
        if (distinct_sizes(observations) >= 2) fits.push_back(fit_gemm(observations, precision));
    return fits;
}

/// Memory bandwidth from a one-segment α-β fit over the sizes moved; with one size, the median rate.
void fit_memory(const std::vector<const Sample*>& compute, ComputeProfile& profile) {
    std::vector<Observation> observations;
    for (const auto* s : compute)
        if (s->op == CalibrationOp{ComputeOp::memory_bandwidth}) observations.push_back({s->bytes, s->time_s});
    if (observations.empty())
        throw InputError("the compute samples have no memory_bandwidth sample; a profile with compute costs needs "
                         "the memory bandwidth (run the calibration's memory benchmark)");
    if (distinct_sizes(observations) >= 2) {
        const auto model = fit_piecewise_alpha_beta(observations, SegmentationOptions{.max_segments = 1});
        profile.memory_bytes_per_second = model.segments.front().bytes_per_second;
        profile.memory_quality = evaluate_fit(observations, [&model](double bytes) { return model.seconds(bytes); });
        return;
    }
    std::vector<double> rates;
    for (const auto& o : observations) rates.push_back(o.x / o.seconds);
    const double rate = median(rates);
    profile.memory_bytes_per_second = rate;
    profile.memory_quality = evaluate_fit(observations, [rate](double bytes) { return bytes / rate; });
}

/// One line per codec kernel, in kCodecKernelNames order, and per rank for the PowerSGD kernels (ascending); a
/// kernel sampled at fewer than two sizes is left out. The top-k settings must agree across a kernel's samples, or
/// the line would mix two kernels. Each keeps its measured points as network fits do (the means of the timed
/// iterations).
std::vector<CodecFit> fit_codecs(const std::vector<const Sample*>& compute) {
    std::vector<CodecFit> fits;
    for (const auto& [kernel, name] : kCodecKernelNames.entries) {
        std::set<int> ranks;
        for (const auto* s : compute)
            if (s->op == CalibrationOp{ComputeOp::codec} && s->kernel == kernel) ranks.insert(s->rank);
        for (int rank : ranks) {
            std::vector<Observation> observations;
            PointTimes mean_times;
            const Sample* first = nullptr;
            for (const auto* s : compute) {
                if (s->op != CalibrationOp{ComputeOp::codec} || s->kernel != kernel || s->rank != rank) continue;
                if (!first) first = s;
                if (s->ratio != first->ratio || s->blocks != first->blocks)
                    throw InputError("codec samples '" + first->key + "' and '" + s->key + "' measured " + std::string(name) +
                                     " with different ratio or blocks; calibrate one setting per profile");
                observations.push_back({s->bytes, s->time_s});
                mean_times[s->bytes].push_back(point_time(*s));
            }
            if (distinct_sizes(observations) < 2) continue;
            fits.push_back(fit_codec(observations, kernel, first->ratio, first->blocks, rank));
            set_measured_points(mean_times, fits.back());
        }
    }
    return fits;
}

double launch_overhead(const std::vector<const Sample*>& compute) {
    std::vector<double> times;
    for (const auto* s : compute)
        if (s->op == CalibrationOp{ComputeOp::launch_latency}) times.push_back(s->time_s);
    return times.empty() ? 0 : median(times);
}

std::optional<ComputeProfile> fit_compute(const std::vector<Sample>& samples) {
    std::vector<const Sample*> compute;
    for (const auto& s : samples)
        if (!is_network(s.op)) compute.push_back(&s);
    if (compute.empty()) return std::nullopt;
    ComputeProfile profile;
    profile.device = device_of(compute);
    profile.gemm = fit_gemms(compute);
    fit_memory(compute, profile);
    profile.launch_overhead_s = launch_overhead(compute);
    profile.codecs = fit_codecs(compute);
    return profile;
}

}  // namespace

Profile fit_profile(const std::vector<Sample>& samples, const std::string& environment_json, const std::string& name) {
    if (samples.empty()) throw InputError("no calibration samples to fit: the samples file is empty");
    Profile profile;
    profile.name = name;
    profile.source = "measured";
    profile.environment_json = environment_json;
    profile.network = fit_network(samples, profile.left_out);
    profile.compute = fit_compute(samples);
    if (profile.compute) profile.compute->shared_cores = shared_cores(environment_from_json(environment_json, "environment.json"));
    return profile;
}

}  // namespace dtsim::calibrate
