#include "dtsim/cost_model.hpp"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "dtsim/sum_over.hpp"

namespace dtsim {
namespace {

LinkModel preset_link(const LinkSpec& link) {
    return LinkModel{link.preset.empty() ? "given" : link.preset, link.bytes_per_second, link.latency_s, link.efficiency,
                     std::nullopt, {}};
}

// A profile's point-to-point fit of a link class sets that link: its latency and bandwidth, and the
// per-message overheads of the small-message regimes. A link the cluster uses (a ring of `ring_members`
// > 1 ranks over it) must be covered; one it does not use keeps the scenario's, which must then be given.
LinkModel link_model(const LinkSpec& written, const Profile* profile, LinkClass link_class, int ring_members,
                     const std::string& key) {
    if (!profile) return preset_link(written);
    const auto cost = profile->link_cost(link_class, ring_members);
    if (!cost) {
        if (ring_members > 1)
            throw CostModelError("profile", "profile '" + profile->name + "' has no " + std::string(to_string(link_class)) +
                                                " point-to-point fit, which this cluster needs; calibrate with ranks " +
                                                (link_class == LinkClass::inter_node ? "on more than one node" : "sharing a node") +
                                                ", or remove the profile");
        // `nic: {count: N}` alone relies on the profile for the link: say that the profile is what lacks it.
        if (written.bytes_per_second <= 0)
            throw CostModelError(key, "profile '" + profile->name + "' has no " + std::string(to_string(link_class)) +
                                          " fit, so it cannot give this link; add a preset (e.g. preset: ib-ndr) or "
                                          "{bandwidth, latency} here, or use a profile calibrated across nodes");
        return preset_link(written);
    }
    return LinkModel{"profile:" + profile->name, cost->bytes_per_second, cost->latency_s, 1.0, *cost,
                     profile->ring_step_costs(link_class)};
}

double preset_peak(const GpuPreset& gpu, Precision precision) {
    const auto peak = gpu.peak_flops_per_second.find(precision);
    if (peak == gpu.peak_flops_per_second.end())
        throw CostModelError("model.precision", "GPU preset '" + gpu.name + "' has no " + std::string(to_string(precision)) +
                                                    " peak; choose another precision or GPU");
    return peak->second;
}

// Attention's core runs at the GEMM rate in use (the profile's, the model's or the preset's) times the
// preset's measured attention ÷ GEMM efficiency: nothing calibrates attention itself. That rate is the
// large GEMM's; a GEMM of another shape runs at it times its shape factor on the preset's SMs. The shape
// model's tiles and fixed depth are Tensor-Core kernels' (docs/hardware-sources.md §7): fp32 without TF32
// runs on the CUDA cores, in other tiles, and keeps the large GEMM's rate for every shape.
ComputeCosts with_gpu_rates(ComputeCosts costs, const GpuPreset& gpu, Precision precision) {
    costs.attention_flops_per_second = costs.flops_per_second * gpu.attention_efficiency / gpu.gemm_efficiency;
    costs.streaming_multiprocessors = precision == Precision::fp32 ? 0 : gpu.streaming_multiprocessors;
    return costs;
}

// A zoo model's rates: the profile's fitted GEMM curve and memory bandwidth where it has a compute section,
// else the GPU preset's peaks times its efficiencies (the model's own GEMM efficiency where given).
ComputeCosts zoo_rates(const Scenario& scenario, const Profile* profile) {
    const auto& model = scenario.model;
    const auto& gpu = scenario.cluster.gpu;
    if (profile && profile->compute) {
        if (model.gemm_efficiency)
            throw CostModelError("model.efficiency", "conflicts with the profile's fitted GEMM rate; remove one of them");
        const auto& compute = *profile->compute;
        const GemmFit* gemm = compute.gemm_for(model.precision);
        if (!gemm) {
            std::string measured;
            for (const auto& fit : compute.gemm) measured += (measured.empty() ? "" : ", ") + std::string(to_string(fit.precision));
            throw CostModelError("model.precision", "profile '" + profile->name + "' has no " +
                                                        std::string(to_string(model.precision)) + " GEMM fit (it has: " +
                                                        measured + "); choose one of those precisions");
        }
        return with_gpu_rates(ComputeCosts{gemm->flops_per_second, compute.memory_bytes_per_second, gemm->fixed_s, {}, {}}, gpu,
                              model.precision);
    }
    const double efficiency = model.gemm_efficiency.value_or(gpu.gemm_efficiency);
    return with_gpu_rates(ComputeCosts{preset_peak(gpu, model.precision) * efficiency,
                                            gpu.memory_bytes_per_second * gpu.memory_efficiency, kKernelLaunchOverheadS, {}, {}},
                               gpu, model.precision);
}

// A direct model's times are given; the work the simulator adds (compression) runs at the profile's rates,
// else the GPU preset's.
ComputeCosts direct_rates(const Scenario& scenario, const Profile* profile) {
    const auto& gpu = scenario.cluster.gpu;
    const auto precision = scenario.model.precision;
    ComputeCosts rates;
    if (const auto peak = gpu.peak_flops_per_second.find(precision); peak != gpu.peak_flops_per_second.end())
        rates.flops_per_second = peak->second * gpu.gemm_efficiency;
    rates.memory_bytes_per_second = gpu.memory_bytes_per_second * gpu.memory_efficiency;
    rates.per_kernel_s = kKernelLaunchOverheadS;
    if (profile && profile->compute) {
        const auto& compute = *profile->compute;
        // A CPU calibration fits fp32 GEMMs only; its fp32 rate is still the device's rather than a preset's.
        const GemmFit* gemm = compute.gemm_for(precision);
        if (!gemm) gemm = compute.gemm_for(Precision::fp32);
        if (gemm) {
            rates.flops_per_second = gemm->flops_per_second;
            rates.per_kernel_s = gemm->fixed_s;
        }
        rates.memory_bytes_per_second = compute.memory_bytes_per_second;
    }
    return with_gpu_rates(rates, gpu, precision);
}

std::vector<LayerWork> model_layers(const ModelSpec& model, const ComputeCosts& rates) {
    std::vector<LayerWork> layers;
    if (model.zoo) {
        layers = layer_times(*model.zoo, model.batch_per_gpu, model.precision, rates.layer_rates());
        if (model.single_gpu_step_s) scale_to_step_time(layers, *model.single_gpu_step_s);
    } else {
        // Gradients become ready evenly through backward, as with many equal layers.
        const auto& direct = model.direct;
        for (int i = 0; i < direct.layers; ++i)
            layers.push_back(LayerWork{"layer" + std::to_string(i), direct.gradient_bytes / direct.layers,
                                       direct.forward_s / direct.layers, direct.backward_s / direct.layers});
    }
    // After any single_gpu_step_time scaling: that measured step is the one without recompute.
    add_recompute(layers, model.recompute_fraction);
    return layers;
}

// Whether the profile's collectives were timed with NCCL (dtsim-runtime's nccl backend, or nccl-tests logs).
bool measured_with_nccl(const Profile& profile) {
    const auto environment = nlohmann::json::parse(profile.environment_json, nullptr, false);
    return environment.is_object() && environment.value("backend", "") == "nccl";
}

}  // namespace

int nics_reached(const ClusterSpec& cluster, int ranks_per_node) {
    std::set<int> nics;
    for (int gpu = 0; gpu < std::min(ranks_per_node, cluster.gpus_per_node); ++gpu) nics.insert(cluster.nic_of_gpu(gpu));
    return std::max(1, static_cast<int>(nics.size()));
}

MessageCost LinkModel::message_cost(double bytes, bool first_of_pass, int ring_members) const {
    if (!calibrated) return {0, bytes};
    const auto step = ring_steps.find(ring_members);
    const LinkCost& timed = step != ring_steps.end() ? step->second : *calibrated;
    return calibrated->carrying(timed.fitted_s(bytes, first_of_pass), bytes);
}

CostModel::CostModel(const Scenario& scenario)
    : gpus_per_node_(scenario.cluster.gpus_per_node), accumulation_steps_(scenario.training.accumulation_steps) {
    const auto& cluster = scenario.cluster;
    const Profile* profile = scenario.profile ? scenario.profile->fits.get() : nullptr;
    // A node's ring has its GPUs; the ring across nodes, one rank per node.
    intra_node_ = link_model(cluster.intra_node, profile, LinkClass::intra_node, cluster.gpus_per_node, "cluster.intra_node");
    nic_ = link_model(cluster.nic, profile, LinkClass::inter_node, cluster.nodes, "cluster.nic");
    intra_hop_ = cluster.intra_node.preset.rfind("nvlink", 0) == 0 ? NcclHop::nvlink : NcclHop::pci;
    nvls_efficiency_ = cluster.intra_node.reduction_efficiency;
    nvls_search_ = cluster.intra_node.nvls_search;
    nccl_channels_ = cluster.intra_node.nccl_channels;
    nic_line_rate_ = cluster.nic.bytes_per_second > 0 ? cluster.nic.bytes_per_second : nic_.effective_bytes_per_second();
    forced_channels_ = scenario.training.strategy.nccl.channels;
    collnet_efficiency_ = cluster.nic.reduction_efficiency;
    intra_ll_max_busbw_ = cluster.intra_node.ll_max_busbw;
    if (profile) {
        for (const auto& fit : profile->network)
            if (fit.mode == TimingMode::latency && !is_point_to_point(fit.op))
                calibrated_collectives_.push_back(fit);
        inter_node_exchange_ = profile->pair_exchange(LinkClass::inter_node);
        const auto& strategy = scenario.training.strategy;
        // Workers that may run apart (async, SSP with a bound above 0) rarely push into a port together.
        const bool drifting = strategy.kind == StrategyKind::parameter_server &&
                              (strategy.sync == SyncMode::async || (strategy.sync == SyncMode::ssp && strategy.staleness > 0));
        if (!drifting) port_incast_ = inter_node_incast(*profile);
        if (const auto round_trip = profile->loaded_round_trip_s(); drifting && round_trip)
            port_join_ramp_ = JoinRamp{*round_trip};
    }
    compute_ = scenario.model.zoo ? zoo_rates(scenario, profile) : direct_rates(scenario, profile);
    if (profile && profile->compute) {
        compute_.codecs = profile->compute->codecs;
        compute_.shared_cores = profile->compute->shared_cores;
    }
    if (profile && measured_with_nccl(*profile)) calibrate_nccl(*profile, cluster);
    layers_ = model_layers(scenario.model, compute_);
    if (const auto& optimizer = scenario.training.optimizer; optimizer && !scenario.training.llm) {
        const auto precision = scenario.model.precision;
        const double element = bytes_per_element(precision);
        optimizer_step_s_ = gradient_bytes() / element * optimizer->step_bytes_per_parameter(precision, element) /
                            compute_.memory_bytes_per_second;
    }
    if (scenario.training.llm)
        llm_ = llm_costs(scenario, compute_.layer_rates());
}

NcclCall CostModel::nccl_call(NetworkOp op, int ranks, int nodes, int ranks_per_node, int rails, double bytes) const {
    return nccl_call_running(op, ranks, nodes, ranks_per_node, rails, bytes, forced_channels_);
}

NcclCall CostModel::nccl_call_running(NetworkOp op, int ranks, int nodes, int ranks_per_node, int rails, double bytes,
                                      int channels) const {
    const auto& across = nccl_.ll_max_busbw_across;
    NcclCaps caps;
    double ring_plateau = 1;
    if (nodes > 1 && nccl_channels_) {
        // The caps are per search channel, and NCCL runs two compute channels on each (connect.cc's duplication):
        // forced compute channels scale the tree's and the ring's caps; NVLSTree runs its own NVLS channels, one per head.
        const auto at = static_cast<size_t>(nodes == 2 ? 0 : 1);
        const int search = nccl_channels_->search_channels(rails, nic_line_rate_);
        const double run = channels > 0 ? channels / (2.0 * search) : 1.0;
        caps = {.tree = run * search * nccl_channels_->tree[at],
                .tree_ll128 = run * search * nccl_channels_->tree_ll128[at],
                .ring_ll128 = run * search * nccl_channels_->ring_ll128[at],
                .nvls_tree = rails * nccl_channels_->nvls_tree[at]};
        // ncclTopoGetAlgoTime applies the plateau to all-reduces of 64 B or more per compute channel and rank.
        const double compute_channels = channels > 0 ? channels : 2.0 * search;
        if (op == NetworkOp::allreduce && bytes / (compute_channels * ranks) >= 64) ring_plateau = nccl_channels_->ring_plateau;
    }
    return NcclCall{.op = op,
                    .ranks = ranks,
                    .nodes = nodes,
                    .ranks_per_node = ranks_per_node,
                    .rails = rails,
                    .bytes = bytes,
                    .intra_hop = intra_hop_,
                    .intra_bytes_per_second = intra_node_.effective_bytes_per_second(),
                    .inter_bytes_per_second = rails * nic_.effective_bytes_per_second(),
                    .nvls_efficiency = nvls_efficiency_ * (nvls_search_ ? nvls_search_->scale(ranks_per_node) : 1),
                    .collnet_efficiency = collnet_efficiency_,
                    .ll_max_busbw = nodes == 1 ? intra_ll_max_busbw_ : across[nodes == 2 ? 0 : 1],
                    .caps = caps,
                    .ring_plateau = ring_plateau};
}

// Every size of every all-reduce, reduce-scatter and all-gather the profile timed back to back (nccl-tests' timing),
// on this cluster's links and NICs: the profile's collectives ran on the cluster it describes.
void CostModel::calibrate_nccl(const Profile& profile, const ClusterSpec& cluster) {
    std::vector<NcclMeasurement> measured;
    for (const auto& fit : profile.network) {
        const bool collective = fit.op == NetworkOp::allreduce || fit.op == NetworkOp::reducescatter || fit.op == NetworkOp::allgather;
        if (!collective || fit.mode != TimingMode::throughput || fit.ranks < 2) continue;
        const int per_node = (fit.ranks + fit.nodes - 1) / fit.nodes;
        const int rails = nics_reached(cluster, per_node);
        for (const auto& [bytes, seconds] : fit.measured)
            measured.push_back({nccl_call_running(fit.op, fit.ranks, fit.nodes, per_node, rails, bytes, 0), fit.nodes > 1 ? rails : 1,
                                fit.nodes > 1 ? nic_.latency_s : intra_node_.latency_s, seconds});
    }
    if (measured.empty()) return;
    nccl_calibration_ = dtsim::calibrate_nccl(nccl_defaults(), measured, compute_.per_kernel_s);
    nccl_ = nccl_calibration_->parameters;
}

const LinkModel& CostModel::link_between(int from_rank, int to_rank) const {
    return from_rank / gpus_per_node_ == to_rank / gpus_per_node_ ? intra_node_ : nic_;
}

const NetworkFit* CostModel::calibrated_collective(NetworkOp op, int ranks, int nodes) const {
    for (const auto& fit : calibrated_collectives_)
        if (fit.op == op && fit.ranks == ranks && fit.nodes == nodes) return &fit;
    return nullptr;
}

bool CostModel::calibrates_group_size(NetworkOp op, int ranks) const {
    return std::any_of(calibrated_collectives_.begin(), calibrated_collectives_.end(),
                       [&](const NetworkFit& fit) { return fit.op == op && fit.ranks == ranks; });
}

double CostModel::inter_node_pair_exchange_extra_s(double bytes) const {
    return inter_node_exchange_ ? inter_node_exchange_->extra_s(bytes) : 0;
}

double CostModel::gradient_bytes() const { return sum_over(layers_, &LayerWork::gradient_bytes); }
double CostModel::forward_s() const { return sum_over(layers_, &LayerWork::forward_s); }
double CostModel::backward_s() const { return sum_over(layers_, &LayerWork::backward_s); }

}  // namespace dtsim
