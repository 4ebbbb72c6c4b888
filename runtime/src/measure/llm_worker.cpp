#include "llm_worker.hpp"

#include <string>
#include <vector>

#include "../mpi_waiting.hpp"
#include "communication_thread.hpp"
#include "dtsim/pipeline_schedule.hpp"
#include "dtsim/straggler_model.hpp"
#include "llm_gradients.hpp"
#include "modelled_timeline.hpp"

namespace dtsim::runtime {
namespace {

// Activations and gradients between two stages travel on distinct tags: each direction keeps its order.
constexpr int kActivationTag = 1, kGradientTag = 2;

std::string span_name(LayoutGroup group, GroupOp op) {
    static constexpr const char* kGroupDimension[] = {"tp", "cp", "ep", "dp", "dp"};
    static constexpr const char* kOpNames[] = {"allreduce", "reduce-scatter", "allgather", "alltoall"};
    return std::string(kGroupDimension[static_cast<int>(group)]) + " " + kOpNames[static_cast<int>(op)];
}

class LlmWorker {
public:
    LlmWorker(MeasureSetup& setup, const LayoutChannelFactory& make_channel)
        : setup_(setup),
          llm_(*setup.scenario.training.llm),
          costs_(*setup.costs.llm()),
          layout_(llm_.parallelism),
          stages_(llm_.parallelism.pipeline),
          stage_(layout_.coordinate(setup.rank, Dimension::pp)),
          chunks_(llm_.pipeline.virtual_stages),
          microbatches_(setup.scenario.training.accumulation_steps),
          buckets_(gradient_buckets(costs_, stage_, stages_, chunks_, setup.scenario.training.strategy.bucket_bytes)),
          main_(make_channel(layout_)),
          gradient_channel_(make_channel(layout_)),
          parameter_channel_(make_channel(layout_)),
          outgoing_(static_cast<std::size_t>(costs_.pipeline_bytes)),
          incoming_(outgoing_.size()) {}

    void run() {
        for (int it = 0; it < setup_.scenario.training.iterations; ++it) iteration(it);
    }

private:
    struct PassRun {
        PipelineOp op;
        int iteration;
        double factor;  // stragglers' slowdown of this iteration's compute
        ModelledTimeline& timeline;
        double pending_s = 0;  // compute given to the device but not yet run (merged into one span)
        void flush() {
            timeline.run(op.pass == Pass::forward ? "forward" : "backward", op.microbatch, pending_s);
            pending_s = 0;
        }
    };

    void iteration(int it) {
        const auto effect = compute_effect(setup_.scenario, setup_.rank, it);  // the simulator's draws, seeded alike
        ModelledTimeline timeline(setup_, it);
        timeline.run("pause", 0, effect.pause_s);
        double extra_s = effect.extra_s;
        for (const auto& op : pipeline_order(llm_.pipeline.schedule, stages_, stage_, microbatches_, chunks_)) {
            PassRun pass{op, it, effect.factor, timeline, extra_s};
            extra_s = 0;
            if (op.pass == Pass::forward)
                forward(pass);
            else
                backward(pass);
        }
        for (auto* thread : {&gradients_, &sends_down_, &sends_up_}) thread->wait_idle();
        timeline.resume();
        timeline.run("optimizer", 0, costs_.optimizer_s(updated_parameters()));
        if (llm_.zero_stage == 1 || llm_.zero_stage == 2)
            for (const auto& chunk : buckets_)
                for (const auto& layer : chunk)
                    for (const auto& bucket : layer) blocking(timeline, bucket.group, GroupOp::allgather, bucket.bytes, it, 0);
        setup_.log.iteration_done(it, setup_.clock.now());
    }

    void forward(PassRun& pass) {
        const int virtual_stage = stage_ + pass.op.chunk * stages_;
        const auto& layers = costs_.virtual_stages[static_cast<std::size_t>(virtual_stage)];
        if (virtual_stage > 0) receive(pass, virtual_stage - 1, kActivationTag);
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const auto& layer = layers[i];
            gather_parameters(pass, layers, i, i + 1 < layers.size() ? &layers[i + 1] : nullptr);
            if (layer.attention) critical(pass, LayoutGroup::cp, GroupOp::allgather, costs_.context_bytes * size(LayoutGroup::cp));
            if (layer.expert) critical(pass, LayoutGroup::ep, GroupOp::alltoall, costs_.alltoall_bytes);  // dispatch
            if (layer.tensor_collective && llm_.parallelism.sequence_parallel)
                critical(pass, LayoutGroup::tp, GroupOp::allgather, costs_.tensor_bytes);
            pass.pending_s += layer.forward_s * pass.factor;
            if (layer.expert) critical(pass, LayoutGroup::ep, GroupOp::alltoall, costs_.alltoall_bytes);  // combine
            if (layer.tensor_collective) tensor_reduction(pass);
        }
        pass.flush();
        if (virtual_stage + 1 < stages_ * chunks_) send(pass, virtual_stage + 1, kActivationTag, sends_down_);
    }

    void backward(PassRun& pass) {
        const int virtual_stage = stage_ + pass.op.chunk * stages_;
        const auto& layers = costs_.virtual_stages[static_cast<std::size_t>(virtual_stage)];
        if (virtual_stage + 1 < stages_ * chunks_) receive(pass, virtual_stage + 1, kGradientTag);
        const bool reduce = llm_.zero_stage >= 2 || pass.op.microbatch == microbatches_ - 1;
        for (std::size_t i = layers.size(); i-- > 0;) {
            const auto& layer = layers[i];
            gather_parameters(pass, layers, i, i > 0 ? &layers[i - 1] : nullptr);
            if (layer.expert) critical(pass, LayoutGroup::ep, GroupOp::alltoall, costs_.alltoall_bytes);  // combine's gradient
            if (layer.tensor_collective && llm_.parallelism.sequence_parallel)
                critical(pass, LayoutGroup::tp, GroupOp::allgather, costs_.tensor_bytes);
            pass.pending_s += layer.backward_s * pass.factor;
            if (layer.expert) critical(pass, LayoutGroup::ep, GroupOp::alltoall, costs_.alltoall_bytes);  // dispatch's gradient
            if (layer.tensor_collective) tensor_reduction(pass);
            if (layer.attention) critical(pass, LayoutGroup::cp, GroupOp::reduce_scatter, costs_.context_bytes * size(LayoutGroup::cp));
            const auto& ready = buckets_[static_cast<std::size_t>(pass.op.chunk)][i];
            if (reduce && !ready.empty()) reduce_gradients(pass, ready);
        }
        pass.flush();
        if (virtual_stage > 0) send(pass, virtual_stage - 1, kGradientTag, sends_up_);
    }

    // Megatron's: an all-reduce after the attention and the MLP block, or with sequence parallelism a
    // reduce-scatter there and an all-gather before them.
    void tensor_reduction(PassRun& pass) {
        critical(pass, LayoutGroup::tp, llm_.parallelism.sequence_parallel ? GroupOp::reduce_scatter : GroupOp::allreduce,
                 costs_.tensor_bytes);
    }

    // The backward of the buckets' last layer is done: they go to the gradient thread (at once without overlap).
    void reduce_gradients(PassRun& pass, const std::vector<GradientBucket>& ready) {
        pass.flush();
        const GroupOp op = llm_.zero_stage == 0 ? GroupOp::allreduce : GroupOp::reduce_scatter;
        for (const auto& bucket : ready) {
            const int it = pass.iteration, index = pass.op.microbatch;
            gradients_.submit([this, bucket, op, it, index] { timed(*gradient_channel_, bucket.group, op, bucket.bytes, it, index); });
        }
        if (!setup_.scenario.training.strategy.overlap) {
            gradients_.wait_idle();
            pass.timeline.resume();
        }
    }

    // ZeRO-3: layer i's parameters must be gathered before its compute; with prefetch the next layer's
    // are gathered meanwhile.
    void gather_parameters(PassRun& pass, const std::vector<RankLayer>& layers, std::size_t i, const RankLayer* next) {
        if (!llm_.shards_parameters()) return;
        auto gather = [this, &pass](const RankLayer& layer) {
            const auto group = layer.expert ? LayoutGroup::expert_data : LayoutGroup::data;
            const auto bytes = static_cast<std::size_t>(layer.gradient_bytes);
            const int it = pass.iteration, index = pass.op.microbatch;
            parameters_.submit([this, group, bytes, it, index] { timed(*parameter_channel_, group, GroupOp::allgather, bytes, it, index); });
        };
        const bool first = pass.op.pass == Pass::forward ? i == 0 : i + 1 == layers.size();
        pass.flush();
        if (first || !llm_.prefetch) gather(layers[i]);
        parameters_.wait_idle();
        pass.timeline.resume();
        if (llm_.prefetch && next) gather(*next);
    }

    // A collective on the critical path: the compute before it runs first, the compute after it waits.
    void critical(PassRun& pass, LayoutGroup group, GroupOp op, double bytes) {
        if (size(group) == 1) return;
        pass.flush();
        blocking(pass.timeline, group, op, static_cast<std::size_t>(bytes), pass.iteration, pass.op.microbatch);
    }

    void blocking(ModelledTimeline& timeline, LayoutGroup group, GroupOp op, std::size_t bytes, int it, int index) {
        timed(*main_, group, op, bytes, it, index);
        timeline.resume();
    }

    void timed(LayoutChannel& channel, LayoutGroup group, GroupOp op, std::size_t bytes, int it, int index) {
        if (channel.size(group) == 1) return;
        const double start = setup_.clock.now();
        channel.collective(group, op, bytes);
        setup_.log.add(Lane::comm, span_name(group, op).c_str(), it, index, start, setup_.clock.now(), static_cast<double>(bytes));
    }

    int rank_of(int virtual_stage) const { return layout_.at_stage(setup_.rank, virtual_stage % stages_); }

    // Blocks until the neighbour's message is in: the stage idles in a pipeline bubble meanwhile.
    void receive(PassRun& pass, int from_virtual_stage, int tag) {
        const double start = setup_.clock.now();
        dtsim::runtime::receive(incoming_.data(), static_cast<int>(incoming_.size()), MPI_BYTE, rank_of(from_virtual_stage), tag,
                                setup_.worker_comm);
        setup_.log.add(Lane::wait, "pipeline bubble", pass.iteration, pass.op.microbatch, start, setup_.clock.now());
        pass.timeline.resume();
    }

    void send(const PassRun& pass, int to_virtual_stage, int tag, CommunicationThread& thread) {
        const int peer = rank_of(to_virtual_stage), it = pass.iteration, index = pass.op.microbatch;
        thread.submit([this, peer, tag, it, index] {
            const double start = setup_.clock.now();
            MPI_Request request = MPI_REQUEST_NULL;
            MPI_Isend(outgoing_.data(), static_cast<int>(outgoing_.size()), MPI_BYTE, peer, tag, setup_.worker_comm, &request);
            wait_one(request);
            setup_.log.add(Lane::comm, "pp send", it, index, start, setup_.clock.now(), static_cast<double>(outgoing_.size()));
        });
    }

    // The optimizer updates this rank's share: with ZeRO 1-3 one data-parallel rank's part of it.
    double updated_parameters() const {
        double dense = 0, expert = 0;
        for (int chunk = 0; chunk < chunks_; ++chunk)
            for (const auto& layer : costs_.virtual_stages[static_cast<std::size_t>(stage_ + chunk * stages_)])
                (layer.expert ? expert : dense) += layer.parameters;
        if (llm_.zero_stage == 0) return dense + expert;
        return dense / size(LayoutGroup::data) + expert / size(LayoutGroup::expert_data);
    }

    int size(LayoutGroup group) const { return main_->size(group); }

    MeasureSetup& setup_;
    const LlmSpec& llm_;
    const LlmCosts& costs_;
    ParallelLayout layout_;
    int stages_, stage_, chunks_, microbatches_;
    GradientBuckets buckets_;
    std::unique_ptr<LayoutChannel> main_, gradient_channel_, parameter_channel_;
    std::vector<unsigned char> outgoing_;  // read by both sending threads, never written
    std::vector<unsigned char> incoming_;
    // Last: started once everything above exists, and stopped (their jobs done) before it goes.
    CommunicationThread gradients_, parameters_, sends_down_, sends_up_;
};

}  // namespace

void run_llm_worker(MeasureSetup& setup, const LayoutChannelFactory& make_channel) { LlmWorker(setup, make_channel).run(); }

}  // namespace dtsim::runtime
