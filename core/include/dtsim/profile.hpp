#pragma once
// A profile says what the hardware costs (docs/architecture.md, "Data model"): network and compute cost models
// fitted from calibration samples (`dtsim fit`), or derived from datasheets and labelled so.
// It is versioned JSON; a scenario's `profile:` key makes the simulator use it instead of presets.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dtsim/codec_kernel.hpp"
#include "dtsim/name_table.hpp"
#include "dtsim/network_ops.hpp"
#include "dtsim/precision.hpp"

namespace dtsim {

inline constexpr int kProfileSchemaVersion = 1;

/// The bandwidth a fit reports for a flat latency plateau (no measurable per-byte cost): 1 PB/s is beyond
/// any link, so the size term stays negligible, yet finite so that profiles and divisions stay valid.
inline constexpr double kUnboundedBytesPerSecond = 1e15;

/// How well a fit reproduces the samples it was fitted on.
struct FitQuality {
    int samples = 0;
    double r_squared = 0;               // of the predicted times against the measured ones
    double median_relative_error = 0;   // |predicted - measured| / measured
    double max_relative_error = 0;
};

/// t = alpha_s + bytes / bytes_per_second for min_bytes <= bytes < next segment's min_bytes. The first segment's
/// alpha_s is a latency (>= 0); a later one's may be negative, its times positive from min_bytes on.
struct AlphaBetaSegment {
    double min_bytes = 0;
    double alpha_s = 0;
    double bytes_per_second = 0;
};

/// Hockney's model fitted piecewise: the segments are sorted by min_bytes, the first starts at 0;
/// a breakpoint is where a protocol or algorithm switches (eager to rendezvous, LL to Simple).
struct PiecewiseAlphaBeta {
    std::vector<AlphaBetaSegment> segments;
    const AlphaBetaSegment& segment_for(double bytes) const;
    double seconds(double bytes) const;
};

/// Link classes a pair of ranks can be in; a collective over both is `mixed`.
enum class LinkClass { intra_node, inter_node, mixed };
inline constexpr auto kLinkClassNames =
    make_name_table(std::pair{LinkClass::intra_node, "intra_node"}, std::pair{LinkClass::inter_node, "inter_node"},
                    std::pair{LinkClass::mixed, "mixed"});
constexpr std::string_view to_string(LinkClass value) { return kLinkClassNames.name(value); }

/// One fitted network operation: a collective over `ranks` ranks on `nodes` nodes, or a point-to-point
/// operation between two ranks of one link class (network_ops.hpp).
struct NetworkFit {
    NetworkOp op = NetworkOp::allreduce;
    TimingMode mode = TimingMode::throughput;
    LinkClass link_class = LinkClass::intra_node;
    int ranks = 2;
    int nodes = 1;
    PiecewiseAlphaBeta model;
    FitQuality quality;
    /// The measured (bytes, seconds) the model was fitted on, one per size, sorted by size (may be empty:
    /// profiles before they were kept, datasheets).
    std::vector<std::pair<double, double>> measured;
    /// Per measured point, the standard error of its time (empty: profiles before it was kept). Initialised
    /// so that aggregate initialisations written before it need not name it.
    std::vector<double> measured_error_s = {};
    /// Timed iterations that were stalls, left out of the measured points (calibrate/sample_estimate.hpp).
    int stalls = 0;
    /// The measured time, interpolated linearly between the two nearest measured sizes; the model outside
    /// them. Where a size was calibrated this is what was measured, not what a few segments make of it.
    double seconds(double bytes) const;
};

/// GEMM time as a function of its FLOPs: t = fixed_s + flops / flops_per_second. The achieved rate
/// flops / t rises with size towards flops_per_second: an efficiency curve to the asymptotic peak.
struct GemmFit {
    Precision precision = Precision::fp32;
    double fixed_s = 0;
    double flops_per_second = 0;
    FitQuality quality;
    double seconds(double flops) const { return fixed_s + flops / flops_per_second; }
    double achieved_flops_per_second(double flops) const { return flops / seconds(flops); }
};

/// A gradient-compression kernel's time as a function of the bucket's uncompressed fp32 bytes:
/// t = fixed_s + bytes / bytes_per_second (kernels: codec_kernel.hpp).
///   ratio   topk only: the fraction of elements the calibration kept (0 elsewhere);
///   blocks  topk_decode only: the number of k-pair blocks summed, one per rank of an all-gather (0 elsewhere).
struct CodecFit {
    CodecKernel kernel = CodecKernel::fp16_encode;
    double fixed_s = 0;
    double bytes_per_second = 0;
    double ratio = 0;
    int blocks = 0;
    FitQuality quality;
    /// The measured (fp32 bytes, seconds) per size, sorted by size, as NetworkFit's (may be empty: older
    /// profiles). Where ranks share cores the kernels' time is not linear in size: all of them fit in a time
    /// slice at small sizes and are time-shared at large ones (see docs/fidelity.md, "Measurements behind the models").
    std::vector<std::pair<double, double>> measured;
    std::vector<double> measured_error_s = {};  // as NetworkFit's
    int rank = 0;  // powersgd kernels: the rank of the factors the calibration timed
    /// fixed_s + fp32_bytes / bytes_per_second.
    double model_seconds(double fp32_bytes) const { return fixed_s + fp32_bytes / bytes_per_second; }
    /// The measured time, interpolated linearly between the two nearest measured sizes; the model outside them.
    double seconds(double fp32_bytes) const;
};

/// The time at `bytes` interpolated linearly between the two nearest of `measured` (sorted by size), or
/// nothing outside them.
std::optional<double> interpolate_measured(const std::vector<std::pair<double, double>>& measured, double bytes);

/// The fit of `kernel` in `fits`, or nullptr (a PowerSGD kernel's first, of its lowest calibrated rank).
const CodecFit* find_codec_fit(const std::vector<CodecFit>& fits, CodecKernel kernel);

/// A PowerSGD kernel's time over `fp32_bytes` with factors of rank `rank`, from its fits in `fits`, or nothing
/// without one. Each product reads the whole matrix once and does `rank` multiply-adds per element read, so
/// the time is linear in the rank with an intercept: interpolated linearly between the two nearest calibrated
/// ranks, extrapolated beyond them along the nearest two (never falling as the rank grows, never below 0).
/// With one calibrated rank there is no intercept to know, and the fit is scaled by rank / its rank (all of
/// the time in the multiply-adds: an upper bound above that rank).
std::optional<double> powersgd_codec_seconds(const std::vector<CodecFit>& fits, CodecKernel kernel, double fp32_bytes, int rank);

/// Where a calibration's ranks outnumbered their machine's cores (runtime/testbed: 5 ranks on 2
/// cores): every `ranks` consecutive ranks shared `cores` cores. Its codec kernels were then timed one rank
/// at a time, and a simulation with the profile runs the codec work of every `ranks` consecutive ranks on
/// a shared pool of `cores` cores.
struct SharedCores {
    int cores = 0;
    int ranks = 0;
};

struct ComputeProfile {
    std::string device;                  // "cpu", or the CUDA device name
    std::vector<GemmFit> gemm;           // one per measured precision
    double memory_bytes_per_second = 0;  // STREAM-triad-like achieved bandwidth
    double launch_overhead_s = 0;        // per kernel (GPU) or per BLAS call (CPU)
    FitQuality memory_quality;
    std::vector<CodecFit> codecs;        // empty when the calibration measured none (GPUs, older profiles)
    std::optional<SharedCores> shared_cores;  // none: every rank had cores of its own
    const GemmFit* gemm_for(Precision precision) const;  // nullptr when not measured
    const CodecFit* codec_for(CodecKernel kernel) const;  // nullptr when not measured
};

/// What one message costs the simulator beyond the flow of its link: a wait before the flow starts, and the
/// bytes the flow carries.
struct MessageCost {
    double overhead_s = 0;
    double wire_bytes = 0;
};

/// The point-to-point costs the simulator uses for one link class (from the sendrecv fit, else the
/// pingpong fit): link latency and bandwidth, and per message what the fitted curve takes beyond them.
/// The sendrecv fit is preferred because it is measured under the load a collective puts on the links
/// and hosts (every rank busy), which a lone ping-pong does not see; back to back (throughput mode) for
/// the steps of a pass that follow one another, and one at a time after a barrier (latency mode) for a
/// pass's first step, which starts from quiet links.
struct LinkCost {
    double latency_s = 0;        // one-way latency of the smallest messages' segment
    double bytes_per_second = 0;  // bandwidth of the largest messages' segment
    PiecewiseAlphaBeta one_way;  // the whole fitted one-way time, back to back where measured so
    std::optional<PiecewiseAlphaBeta> from_idle;  // one at a time, when one_way is back to back
    /// So that the message alone takes the fitted time t (from_idle's for the first step of a pass, where
    /// there is one): latency + wire_bytes / bandwidth + overhead == max(t, latency). Where t is longer,
    /// the difference is the per-message software and protocol overhead (eager copies, rendezvous
    /// handshakes) that the link does not carry. Where it is shorter (a token bucket's burst after an idle
    /// moment, a mid-size regime faster than the last segment), the flow carries fewer bytes.
    MessageCost message_cost(double bytes, bool first_of_pass = false) const;
    /// The fitted time of one message (from_idle's for a pass's first step, where there is one).
    double fitted_s(double bytes, bool first_of_pass = false) const;
    /// What a message of `bytes` that takes `fitted` seconds costs on this link, as message_cost says.
    MessageCost carrying(double fitted, double bytes) const;
};

/// A two-way exchange with one peer (`exchange`: each sends to and receives from the other at once) against a ring step
/// of the same class (`sendrecv` among more ranks: each sends to one and receives from another), both timed one at a
/// time. On TCP both directions of one peer pair share connections and queues, and the former can take much longer (see
/// docs/fidelity.md, "Measurements behind the models"), which a full-duplex link model does not describe.
struct PairExchange {
    NetworkFit exchange;
    NetworkFit ring_step;
    /// What an exchange of `bytes` each way takes beyond a ring step of the same size; never negative.
    double extra_s(double bytes) const;
};

struct Profile {
    int schema_version = kProfileSchemaVersion;
    std::string name;
    std::string source;            // "measured" or "datasheet"
    std::string description;
    std::string environment_json;  // environment.json of the calibration, verbatim ("{}" for datasheet)
    std::vector<NetworkFit> network;
    std::optional<ComputeProfile> compute;
    std::vector<std::string> left_out;  // samples the fit left out, each with its reason (a line of text)

    /// The point-to-point fit of a link class the simulator uses (see LinkCost), if any. Of the ring steps,
    /// the one timed with `ring_members` ranks where the calibration has it (rings of a smaller group's
    /// ranks), else the whole class's (the most ranks).
    const NetworkFit* point_to_point(LinkClass link_class, int ring_members = 0) const;
    std::optional<LinkCost> link_cost(LinkClass link_class, int ring_members = 0) const;
    /// The link costs of the class's ring steps by ring size, for every size the calibration timed.
    std::map<int, LinkCost> ring_step_costs(LinkClass link_class) const;
    /// The latency-mode `exchange` and `sendrecv` fits of a link class, when the profile has both.
    std::optional<PairExchange> pair_exchange(LinkClass link_class) const;
    /// The round trip a small message takes behind a full queue (the loaded_pingpong fit: twice its one-way
    /// time at its smallest calibrated size), if the profile has it.
    std::optional<double> loaded_round_trip_s() const;
    /// The round trip of a small message over an idle link (the inter_node pingpong fit, timed one at a time:
    /// twice its one-way time at its smallest calibrated size), if the profile has it: printed beside the loaded
    /// one, whose excess over it is the queue.
    std::optional<double> idle_round_trip_s() const;
};

/// Versioned JSON text (stable key order). Loading validates every field and throws InputError naming
/// the file, line and key; a newer schema version is refused with a message saying so.
std::string profile_to_json(const Profile& profile);
Profile profile_from_json(const std::string& text, const std::string& file_label);
Profile load_profile_file(const std::string& path);
/// The same, parsed once per process while the file keeps its size and modification time: the scenarios that
/// name one profile (a sweep's points, validate's scenarios, a draw's records) share it.
std::shared_ptr<const Profile> load_shared_profile_file(const std::string& path);

}  // namespace dtsim
