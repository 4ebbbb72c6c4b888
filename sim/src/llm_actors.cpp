// The compute stream of each rank of an LLM layout: its pipeline stage's passes in the schedule's order
// (pipeline_schedule.hpp), each layer's compute with its tensor, context and expert collectives on the
// critical path, activations and gradients sent to the neighbouring stages, gradient buckets handed to
// the gradient stream and parameters taken from the gather stream (llm_streams.hpp); then the optimizer
// step over the rank's shard. Flow fidelity simulates one rank per tensor group (its ranks do the same
// work at the same time on links of their own) and prices its tensor collectives from the link model.
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <random>

#include "dtsim/buckets.hpp"
#include "dtsim/pipeline_schedule.hpp"
#include "dtsim/sim/actors.hpp"
#include "dtsim/sim/calibrated_collectives.hpp"
#include "dtsim/sim/nccl_collectives.hpp"
#include "dtsim/sim/compute_schedule.hpp"
#include "dtsim/sim/faults.hpp"
#include "dtsim/straggler_model.hpp"
#include "llm_streams.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

// Within the compute stream, ring collectives use channels 0 and 1.
constexpr int kActivationChannel = 2;
constexpr int kGradientChannel = 3;

struct LlmShared {
    explicit LlmShared(const SimulationContext& ctx)
        : layout(ctx.scenario.training.llm->parallelism),
          barriers(ctx.scenario),
          one_per_tensor_group(llm_ranks_with_timeline(ctx.scenario) > 0) {}
    ParallelLayout layout;
    FlowBarriers barriers;
    bool one_per_tensor_group;
    std::map<int, RankStreams> streams;  // per simulated rank; a map keeps references stable
};

// Where gradient buckets end in a chunk's backward (layers in backward order), as make_buckets fills them.
struct ChunkBuckets {
    std::vector<double> bytes_after;  // per backward position: the dense bucket handed over after it, or 0
};

ChunkBuckets chunk_buckets(const std::vector<RankLayer>& layers, double bucket_bytes) {
    std::vector<LayerWork> dense;
    for (const auto& layer : layers)
        dense.push_back(LayerWork{layer.name, layer.expert ? 0 : layer.gradient_bytes, layer.forward_s, layer.backward_s});
    const auto plan = make_buckets(dense, bucket_bytes);
    ChunkBuckets result{std::vector<double>(layers.size(), 0.0)};
    size_t position = 0;
    for (const auto& bucket : plan.buckets) {
        position += static_cast<size_t>(bucket.layers);
        if (bucket.bytes > 0) result.bytes_after[position - 1] = bucket.bytes;
    }
    return result;
}

// A token-imbalance factor for one expert layer's work: log-normal with mean 1 and the scenario's
// coefficient of variation, the same for a given seed, rank, iteration, microbatch and layer.
double expert_load(const Scenario& scenario, int rank, int iteration, int microbatch, int layer) {
    const double cv = scenario.training.llm->expert_imbalance;
    if (cv <= 0) return 1;
    std::seed_seq seed{static_cast<unsigned>(scenario.seed), static_cast<unsigned>(rank), static_cast<unsigned>(iteration),
                       static_cast<unsigned>(microbatch), static_cast<unsigned>(layer)};
    std::mt19937_64 engine(seed);
    const double sigma = std::sqrt(std::log(1 + cv * cv));
    return std::lognormal_distribution<double>(-sigma * sigma / 2, sigma)(engine);
}

class ComputeStream {
public:
    ComputeStream(SimulationContext& ctx, LlmShared& shared, int rank, int slot)
        : ctx_(ctx),
          shared_(shared),
          llm_(*ctx.scenario.training.llm),
          costs_(*ctx.costs.llm()),
          rank_(rank),
          stage_(shared.layout.coordinate(rank, Dimension::pp)),
          actor_{ctx, slot, static_cast<int>(Stream::compute)},
          streams_(shared.streams.at(rank)),
          groups_(data_groups(ctx, shared.layout, rank)),
          order_(pipeline_order(llm_.pipeline.schedule, llm_.parallelism.pipeline, stage_, ctx.scenario.training.accumulation_steps,
                                llm_.pipeline.virtual_stages)),
          contents_(costs_.stage_contents(stage_, llm_.parallelism.pipeline)),
          optimizer_parameters_(shard_parameters()),
          priced_tensor_collective_s_(shared.one_per_tensor_group ? priced_tensor_collective_s() : 0) {
        for (int chunk = 0; chunk < llm_.pipeline.virtual_stages; ++chunk)
            buckets_.push_back(chunk_buckets(layers(chunk), ctx.scenario.training.strategy.bucket_bytes));
    }

    void run() {
        auto& state = ctx_.state(actor_.slot);
        for (int it = 0; it < ctx_.scenario.training.iterations; ++it) {
            state.iteration = it;
            iteration_ = it;
            effect_ = compute_effect(ctx_.scenario, rank_, it);
            if (effect_.pause_s > 0) {
                sg4::this_actor::sleep_for(effect_.pause_s);
                ctx_.record(rank_, Lane::compute, "pause", it, 0, sg4::Engine::get_clock() - effect_.pause_s);
            }
            queue_gathers();
            for (const auto& op : order_) run_pass(op);
            finish_iteration(state);
        }
        if (llm_.shards_parameters()) streams_.gathers.push(GatherJob{0, false, 0, 0, true});
        state.finished = true;
    }

private:
    const std::vector<RankLayer>& layers(int chunk) const {
        return costs_.virtual_stages[static_cast<size_t>(chunk * llm_.parallelism.pipeline + stage_)];
    }
    int virtual_stages() const { return llm_.parallelism.pipeline * llm_.pipeline.virtual_stages; }
    int rank_of_virtual_stage(int index) const { return shared_.layout.at_stage(rank_, index % llm_.parallelism.pipeline); }
    bool reduces_gradients(int microbatch) const {
        return llm_.zero_stage >= 2 || microbatch == ctx_.scenario.training.accumulation_steps - 1;
    }
    GradientOp gradient_op() const {
        if (llm_.hybrid_sharding()) return GradientOp::hybrid;
        return llm_.zero_stage == 0 ? GradientOp::allreduce : GradientOp::reduce_scatter;
    }

    // ZeRO-3 and FSDP: every layer with parameters is gathered before each of its passes.
    void queue_gathers() {
        if (!llm_.shards_parameters()) return;
        for (const auto& op : order_) {
            const auto& chunk = layers(op.chunk);
            for (size_t i = 0; i < chunk.size(); ++i) {
                const auto& layer = chunk[op.pass == Pass::forward ? i : chunk.size() - 1 - i];
                if (layer.parameter_bytes > 0)
                    streams_.gathers.push(GatherJob{layer.parameter_bytes, layer.expert, iteration_, op.microbatch, false});
            }
        }
    }

    // Compute time runs back to back within a pass; it is recorded as one span per stretch between communications.
    void compute(double seconds) {
        if (seconds <= 0) return;
        if (segment_start_ < 0) segment_start_ = sg4::Engine::get_clock();
        sg4::this_actor::sleep_for(seconds);
    }
    void end_segment() {
        if (segment_start_ < 0) return;
        ctx_.record(rank_, Lane::compute, pass_name_, iteration_, microbatch_, segment_start_);
        segment_start_ = -1;
    }

    void run_pass(const PipelineOp& op) {
        microbatch_ = op.microbatch;
        pass_name_ = op.pass == Pass::forward ? "forward" : "backward";
        const int index = op.chunk * llm_.parallelism.pipeline + stage_;
        const bool forward = op.pass == Pass::forward;
        // Activations come from the stage before; gradients from the stage after.
        if (forward && index > 0) receive_from(rank_of_virtual_stage(index - 1), kActivationChannel);
        if (!forward && index < virtual_stages() - 1) receive_from(rank_of_virtual_stage(index + 1), kGradientChannel);
        const auto& chunk = layers(op.chunk);
        for (size_t i = 0; i < chunk.size(); ++i) {
            const size_t at = forward ? i : chunk.size() - 1 - i;
            run_layer(chunk[at], forward, static_cast<int>(at));
            if (!forward && reduces_gradients(op.microbatch)) hand_over_gradients(op.chunk, chunk[at], i);
        }
        end_segment();
        if (forward && index < virtual_stages() - 1) send_to(rank_of_virtual_stage(index + 1), kActivationChannel);
        if (!forward && index > 0) send_to(rank_of_virtual_stage(index - 1), kGradientChannel);
    }

    void run_layer(const RankLayer& layer, bool forward, int position) {
        const bool gathered = llm_.shards_parameters() && layer.parameter_bytes > 0;
        if (gathered) {
            wait_for_parameters();
            if (llm_.prefetch) streams_.gather_credit->release();
        }
        const bool exchanges_tokens = layer.expert && llm_.parallelism.expert > 1;
        if (layer.attention && llm_.parallelism.context > 1) context_exchange(forward);
        if (exchanges_tokens) expert_alltoall();
        const double load = layer.expert ? expert_load(ctx_.scenario, rank_, iteration_, microbatch_, position) : 1;
        double seconds = (forward ? layer.forward_s : layer.backward_s) * effect_.factor * load;
        if (forward && !extra_added_) {
            seconds += effect_.extra_s;
            extra_added_ = true;
        }
        if (!forward && layer.repeats_tensor_collective) tensor_collective();
        compute(seconds);
        if (exchanges_tokens) expert_alltoall();
        if (layer.tensor_collective) tensor_collective();
        if (gathered && !llm_.prefetch) streams_.gather_credit->release();
    }

    void wait_for_parameters() {
        if (streams_.gathered->would_block()) end_segment();
        const double start = sg4::Engine::get_clock();
        ctx_.state(actor_.slot).waiting_for = "a layer's parameters from the gather stream";
        streams_.gathered->acquire();
        if (sg4::Engine::get_clock() > start)
            ctx_.recorder.add(Span{rank_, Lane::wait, "wait: parameters", iteration_, microbatch_, start, sg4::Engine::get_clock(), 0});
    }

    // Megatron-LM: an all-reduce of the layer's output activations in each pass, or with sequence
    // parallelism a reduce-scatter and an all-gather of the same size.
    void tensor_collective() {
        end_segment();
        const double start = sg4::Engine::get_clock();
        const auto group = rank_group(shared_.layout.group(rank_, Dimension::tp));
        const double bytes = costs_.tensor_bytes;
        const bool sp = llm_.parallelism.sequence_parallel;
        ctx_.state(actor_.slot).waiting_for = "the tensor-parallel collective";
        if (shared_.one_per_tensor_group) {
            sg4::this_actor::sleep_for(priced_tensor_collective_s_);
        } else if (sp) {
            calibrated_reduce_scatter(actor_, group, bytes);
            calibrated_allgather(actor_, group, bytes);
        } else {
            calibrated_ring_allreduce(actor_, group, bytes);
        }
        ctx_.record(rank_, Lane::comm, sp ? "tp reduce-scatter" : "tp allreduce", iteration_, microbatch_, start, bytes);
    }

    // Flow fidelity: the tensor collective as a ring over links nothing else uses, priced from the link
    // model as SimGrid would time it alone, with the calibration's per-step extra. The same every time.
    double priced_tensor_collective_s() {
        const auto group = rank_group(shared_.layout.group(rank_, Dimension::tp));
        const double bytes = costs_.tensor_bytes;
        if (ctx_.scenario.training.strategy.algorithm == AllReduceAlgorithm::nccl) {
            const bool sp = llm_.parallelism.sequence_parallel;
            return sp ? nccl_collective_alone_s(ctx_, group, NetworkOp::reducescatter, bytes) +
                            nccl_collective_alone_s(ctx_, group, NetworkOp::allgather, bytes)
                      : nccl_collective_alone_s(ctx_, group, NetworkOp::allreduce, bytes);
        }
        const int steps = 2 * (group.count - 1), next = group.next();
        const auto cost = ctx_.message_cost(rank_, next, bytes / group.count, false, group.count);
        const double rate = ctx_.costs.link_between(rank_, next).effective_bytes_per_second();
        return steps * (ctx_.route_latency_s(rank_, next) + cost.overhead_s + cost.wire_bytes / rate +
                        calibrated_extra_step_s(ctx_, NetworkOp::allreduce, group, bytes, steps));
    }

    // Context parallelism: the keys and values of the other ranks' sequence shares go round the ring
    // (gathered in forward, their gradients reduced in backward).
    void context_exchange(bool forward) {
        end_segment();
        const double start = sg4::Engine::get_clock();
        const auto group = rank_group(shared_.layout.group(rank_, Dimension::cp));
        ctx_.state(actor_.slot).waiting_for = "the context-parallel exchange";
        shared_.barriers.run(actor_, Stream::compute, group, true,
                             [&] { calibrated_allgather(actor_, group, costs_.context_bytes * group.count); });
        // Bytes as nccl-tests counts them: the whole gathered array.
        ctx_.record(rank_, Lane::comm, forward ? "cp allgather" : "cp reduce-scatter", iteration_, microbatch_, start,
                    costs_.context_bytes * group.count);
    }

    // Mixture of experts: tokens to their experts' ranks and back, in each pass.
    void expert_alltoall() {
        end_segment();
        const double start = sg4::Engine::get_clock();
        const auto group = rank_group(shared_.layout.group(rank_, Dimension::ep));
        ctx_.state(actor_.slot).waiting_for = "the expert all-to-all";
        scenario_alltoall(actor_, group, costs_.alltoall_bytes);
        ctx_.record(rank_, Lane::comm, "ep alltoall", iteration_, microbatch_, start, costs_.alltoall_bytes);
    }

    // Blocked on a neighbouring stage: the part before its message starts is the pipeline's bubble.
    void receive_from(int peer, int channel) {
        const double start = sg4::Engine::get_clock();
        auto& state = ctx_.state(actor_.slot);
        state.waiting_for = channel == kActivationChannel ? "activations from the previous stage" : "gradients from the next stage";
        state.peer = peer;
        auto comm = receive_message(actor_, peer, rank_, channel);
        comm->wait();
        state.peer = -1;
        const double arrived = std::max(start, comm->get_start_time());
        if (arrived > start) ctx_.recorder.add(Span{rank_, Lane::wait, "pipeline bubble", iteration_, microbatch_, start, arrived, 0});
        ctx_.recorder.add(Span{rank_, Lane::comm, "pp recv", iteration_, microbatch_, arrived, sg4::Engine::get_clock(), costs_.pipeline_bytes});
    }

    void send_to(int peer, int channel) {
        // Detached: an actor keeping thousands of unfinished sends makes SimGrid's bookkeeping quadratic.
        send_detached_message(actor_, rank_, peer, costs_.pipeline_bytes, channel);
    }

    void hand_over_gradients(int chunk, const RankLayer& layer, size_t backward_position) {
        const double bytes = buckets_[static_cast<size_t>(chunk)].bytes_after[backward_position];
        if (layer.expert && layer.gradient_bytes > 0)
            streams_.gradients.push(GradientJob{layer.gradient_bytes, true, gradient_op(), iteration_, bucket_index_++, false});
        if (bytes > 0) streams_.gradients.push(GradientJob{bytes, false, gradient_op(), iteration_, bucket_index_++, false});
    }

    void finish_iteration(ActorState& state) {
        streams_.gradients.push(GradientJob{0, false, gradient_op(), iteration_, bucket_index_, true});
        state.waiting_for = "the gradient stream to finish the iteration";
        streams_.gradients_done->acquire();
        bucket_index_ = 0;
        extra_added_ = false;
        optimizer_step();
        for (const int peer : modelled_peers()) iteration_finished(ctx_, peer, 1, iteration_);
    }

    // The optimizer updates the rank's shard of the stage's parameters, memory-bound; ZeRO-1 and -2 then
    // gather the updated parameters from the data-parallel group.
    // The parameters the rank's optimizer updates: its stage's, divided over the data-parallel group from ZeRO-1 on.
    double shard_parameters() const {
        const bool sharded = llm_.zero_stage >= 1;
        return contents_.dense_parameters / (sharded ? groups_.shard.count : 1) +
               contents_.expert_parameters / (sharded ? groups_.expert.count : 1);
    }

    void optimizer_step() {
        const double start = sg4::Engine::get_clock();
        sg4::this_actor::sleep_for(costs_.optimizer_s(optimizer_parameters_) * effect_.factor);
        ctx_.record(rank_, Lane::compute, "optimizer", iteration_, 0, start);
        if (llm_.zero_stage == 0 || llm_.shards_parameters()) return;
        const double element = bytes_per_element(ctx_.scenario.model.precision);
        const double dense = contents_.dense_parameters, expert = contents_.expert_parameters;
        const double gather_start = sg4::Engine::get_clock();
        ctx_.state(actor_.slot).waiting_for = "the data-parallel parameter all-gather";
        shared_.barriers.run(actor_, Stream::compute, groups_.dense, true,
                             [&] { calibrated_allgather(actor_, groups_.dense, dense * element); });
        if (expert > 0)
            shared_.barriers.run(actor_, Stream::compute, groups_.expert, true,
                                 [&] { calibrated_allgather(actor_, groups_.expert, expert * element); });
        ctx_.record(rank_, Lane::comm, "dp allgather", iteration_, 0, gather_start, (dense + expert) * element);
    }

    // The ranks this actor stands for: its whole tensor group where one rank is simulated per group.
    std::vector<int> modelled_peers() const {
        if (!shared_.one_per_tensor_group) return {rank_};
        const auto group = shared_.layout.group(rank_, Dimension::tp);
        std::vector<int> ranks;
        for (int i = 0; i < group.count; ++i) ranks.push_back(group.rank_at(i));
        return ranks;
    }

    SimulationContext& ctx_;
    LlmShared& shared_;
    const LlmSpec& llm_;
    const LlmCosts& costs_;
    const int rank_;
    const int stage_;
    const Actor actor_;
    RankStreams& streams_;
    const DataGroups groups_;
    const std::vector<PipelineOp> order_;
    const LlmCosts::StageContents contents_;
    const double optimizer_parameters_;
    const double priced_tensor_collective_s_;  // flow fidelity
    std::vector<ChunkBuckets> buckets_;
    ComputeEffect effect_;
    int iteration_ = 0;
    int microbatch_ = 0;
    int bucket_index_ = 0;
    bool extra_added_ = false;
    const char* pass_name_ = "forward";
    double segment_start_ = -1;
};

}  // namespace

int llm_ranks_with_timeline(const Scenario& scenario) {
    if (!scenario.training.llm || scenario.training.fidelity != Fidelity::flow) return 0;
    return scenario.cluster.gpus() / scenario.training.llm->parallelism.tensor;
}

// The ranks of rank 0's tensor group on its node behind its NIC (every group is placed alike).
int tensor_ranks_per_nic(const SimulationContext& ctx, const ParallelLayout& layout) {
    const auto& cluster = ctx.scenario.cluster;
    const auto group = layout.group(0, Dimension::tp);
    int sharers = 0;
    for (int i = 0; i < group.count; ++i) {
        const int rank = group.rank_at(i);
        sharers += cluster.node_of(rank) == 0 && cluster.nic_of_gpu(rank % cluster.gpus_per_node) == cluster.nic_of_gpu(0);
    }
    return sharers;
}

void spawn_llm_actors(SimulationContext& ctx) {
    auto shared = std::make_shared<LlmShared>(ctx);
    if (shared->one_per_tensor_group) ctx.nic_sharers = tensor_ranks_per_nic(ctx, shared->layout);
    std::vector<int> ranks;
    for (int rank = 0; rank < ctx.workers; ++rank)
        if (!shared->one_per_tensor_group || shared->layout.coordinate(rank, Dimension::tp) == 0) ranks.push_back(rank);
    for (int rank : ranks) shared->streams[rank];
    for (int rank : ranks) {
        auto* host = ctx.platform.gpu_hosts[static_cast<size_t>(rank)];
        const auto name = std::to_string(rank);
        const int compute_slot = ctx.register_actor("rank " + name);
        ctx.cohort.actors.push_back(sg4::Actor::create("rank-" + name, host, [&ctx, shared, rank, compute_slot] {
            ComputeStream(ctx, *shared, rank, compute_slot).run();
        }));
        const int gradient_slot = ctx.register_actor("rank " + name + " gradients");
        ctx.cohort.actors.push_back(sg4::Actor::create("gradients-" + name, host, [&ctx, shared, rank, gradient_slot] {
            run_gradient_stream(Actor{ctx, gradient_slot, static_cast<int>(Stream::gradients)}, shared->streams.at(rank),
                                shared->barriers, data_groups(ctx, shared->layout, rank));
        }));
        if (!ctx.scenario.training.llm->shards_parameters()) continue;
        const int gather_slot = ctx.register_actor("rank " + name + " gathers");
        ctx.cohort.actors.push_back(sg4::Actor::create("gathers-" + name, host, [&ctx, shared, rank, gather_slot] {
            run_gather_stream(Actor{ctx, gather_slot, static_cast<int>(Stream::gather)}, shared->streams.at(rank),
                              shared->barriers, data_groups(ctx, shared->layout, rank));
        }));
    }
}

}  // namespace dtsim::sim
