#pragma once
// What everything costs: built once per scenario from its hardware presets, or from its profile where it
// names one, and the only place the simulator reads a cost from (docs/architecture.md, "Cost model").
// The scenario says what the user wrote; the cost model says what that hardware takes to run it.
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtsim/compute_model.hpp"
#include "dtsim/incast.hpp"
#include "dtsim/llm_costs.hpp"
#include "dtsim/network_ops.hpp"
#include "dtsim/nccl_calibration.hpp"
#include "dtsim/nccl_model.hpp"
#include "dtsim/profile.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/tcp_join.hpp"

namespace dtsim {

/// A scenario whose profile cannot price it (a link class or precision the profile did not fit, an
/// efficiency that contradicts the profile's fit). `key` is the dotted scenario key to blame; the loader
/// turns it into a located InputError, so a loaded scenario always has a cost model.
struct CostModelError : std::runtime_error {
    CostModelError(std::string key_in, const std::string& message) : std::runtime_error(message), key(std::move(key_in)) {}
    std::string key;
};

/// What a message costs on one link class: the link's flow (latency, bandwidth and efficiency, from the
/// preset or the profile's point-to-point fit) and, with a profile, what the fitted curves add per message.
struct LinkModel {
    std::string source;           // the preset, "given" (bandwidth and latency written out) or "profile:NAME"
    double bytes_per_second = 0;  // line rate, one direction
    double latency_s = 0;         // one-way, host to host
    double efficiency = 1;        // achieved / line rate
    std::optional<LinkCost> calibrated;  // the profile's fit: sets the three above, adds per-message overheads
    std::map<int, LinkCost> ring_steps;  // the profile's ring steps by the ranks they were timed with
    double effective_bytes_per_second() const { return bytes_per_second * efficiency; }
    /// A message's cost beyond the link's flow (none without a profile; see LinkCost::message_cost). A step
    /// of a ring of `ring_members` ranks takes the ring step timed with as many where the profile has one.
    MessageCost message_cost(double bytes, bool first_of_pass = false, int ring_members = 0) const;
};

/// One GPU's achieved rates for the work the simulator adds to the model's layers (compression), and the
/// calibrated codec kernels.
struct ComputeCosts {
    double flops_per_second = 0;         // the profile's GEMM fit, else the preset's peak × GEMM efficiency
    double memory_bytes_per_second = 0;  // the profile's, else the preset's peak × memory efficiency
    double per_kernel_s = 0;             // fixed cost of each kernel: the GEMM fit's intercept, else a launch
    std::vector<CodecFit> codecs;        // the profile's fitted compression kernels; empty: memory-bound passes
    std::optional<SharedCores> shared_cores;  // the profile's: ranks that time-share cores for codec work
    double attention_flops_per_second = 0;    // the GEMM rate above × the preset's attention ÷ GEMM efficiency
    int streaming_multiprocessors = 0;        // the GPU preset's, for GEMM shapes
    ComputeRates layer_rates() const {
        return ComputeRates{flops_per_second, memory_bytes_per_second, per_kernel_s, attention_flops_per_second,
                            streaming_multiprocessors};
    }
};

/// The NICs the first `ranks_per_node` GPUs of a node reach: the rails NCCL's channels use across nodes.
int nics_reached(const ClusterSpec& cluster, int ranks_per_node);

class CostModel {
public:
    /// Throws CostModelError where the scenario's profile cannot price it.
    explicit CostModel(const Scenario& scenario);

    const LinkModel& intra_node() const { return intra_node_; }
    const LinkModel& nic() const { return nic_; }
    /// The link between two GPU ranks: the GPU link within a node, else the NIC.
    const LinkModel& link_between(int from_rank, int to_rank) const;

    /// The profile's latency-mode fit of collective `op` over `ranks` ranks on `nodes` nodes, if any.
    const NetworkFit* calibrated_collective(NetworkOp op, int ranks, int nodes) const;
    /// Whether the profile timed `op` over any group of `ranks` ranks (a cheap test before counting nodes).
    bool calibrates_group_size(NetworkOp op, int ranks) const;
    /// What an exchange of `bytes` each way with one peer on another node takes beyond a ring step
    /// (PairExchange); 0 without such a calibration.
    double inter_node_pair_exchange_extra_s(double bytes) const;
    /// What a receiving NIC port keeps of its rate under simultaneous senders: the profile's where senders
    /// start together (collectives, synchronous parameter servers), a perfectly shared port where they
    /// drift apart (asynchronous and stale-synchronous workers; docs/calibration.md, "Incast") or where
    /// nothing was calibrated.
    const IncastCurve& port_incast() const { return port_incast_; }
    /// Where workers drift apart (asynchronous and stale-synchronous parameter servers) and the profile timed the
    /// round trip behind a full queue: how a push entering a server's port that other pushes fill starts
    /// (tcp_join.hpp). None otherwise: without the calibration, and where workers push together, whose port the
    /// incast curve above describes, measured with senders that start together.
    const std::optional<JoinRamp>& port_join_ramp() const { return port_join_ramp_; }
    /// Ports shared perfectly from now on: the replay of the very all-to-alls the incast was fitted from.
    void share_ports_perfectly() { port_incast_ = {}; }

    /// NCCL's per-protocol latencies, payload fractions and chunks for algorithm: nccl (nccl_model.hpp):
    /// NCCL's published defaults, with the latencies calibrated where the profile measured NCCL's collectives
    /// (nccl_calibration.hpp).
    const NcclParameters& nccl() const { return nccl_; }
    /// The calibration of NCCL's latencies from the profile's collectives; none without one measured with NCCL.
    const std::optional<NcclCalibration>& nccl_calibration() const { return nccl_calibration_; }
    /// The shape NCCL's model sees for a collective of `ranks` ranks on `nodes` nodes, at most `ranks_per_node`
    /// of them on one node, which reach `rails` of its NICs, over this cluster's links, with the channels the
    /// scenario forces (training.strategy.nccl.channels).
    NcclCall nccl_call(NetworkOp op, int ranks, int nodes, int ranks_per_node, int rails, double bytes) const;

    const ComputeCosts& compute() const { return compute_; }
    /// One GPU's layers in forward order, with the per-GPU batch applied; backward includes recompute.
    const std::vector<LayerWork>& layers() const { return layers_; }
    double gradient_bytes() const;
    double forward_s() const;
    double backward_s() const;
    /// What one rank of an LLM layout computes and sends; none without one.
    const LlmCosts* llm() const { return llm_ ? &*llm_ : nullptr; }
    /// Plain data parallelism with training.optimizer: its step over every parameter once per iteration, after
    /// the last all-reduce, memory-bound (OptimizerSpec::step_bytes_per_parameter); 0 without one, and with an
    /// LLM layout, whose ranks step their own shards (llm()).
    double optimizer_step_s() const { return optimizer_step_s_; }
    /// One GPU's iteration without communication: every micro-batch's forward and backward, then the optimizer step.
    double single_gpu_iteration_s() const { return accumulation_steps_ * (forward_s() + backward_s()) + optimizer_step_s_; }

private:
    void calibrate_nccl(const Profile& profile, const ClusterSpec& cluster);
    /// nccl_call with `channels` compute channels forced; 0: NCCL's own.
    NcclCall nccl_call_running(NetworkOp op, int ranks, int nodes, int ranks_per_node, int rails, double bytes, int channels) const;

    NcclParameters nccl_ = nccl_defaults();
    std::optional<NcclCalibration> nccl_calibration_;
    NcclHop intra_hop_ = NcclHop::nvlink;
    double nvls_efficiency_ = 0;  // with 8 GPUs of a node in the call
    std::optional<NvlsSearch> nvls_search_;
    std::optional<NcclChannels> nccl_channels_;
    double nic_line_rate_ = 0;
    int forced_channels_ = 0;
    double collnet_efficiency_ = 0;
    double intra_ll_max_busbw_ = 0;
    int gpus_per_node_ = 1;
    int accumulation_steps_ = 1;
    double optimizer_step_s_ = 0;
    LinkModel intra_node_;
    LinkModel nic_;
    std::vector<NetworkFit> calibrated_collectives_;
    std::optional<PairExchange> inter_node_exchange_;
    IncastCurve port_incast_;
    std::optional<JoinRamp> port_join_ramp_;
    ComputeCosts compute_;
    std::vector<LayerWork> layers_;
    std::optional<LlmCosts> llm_;
};

}  // namespace dtsim
