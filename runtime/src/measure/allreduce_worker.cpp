#include "allreduce_worker.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "communication_thread.hpp"
#include "dtsim/straggler_model.hpp"
#include "gradient_data.hpp"
#include "half_precision.hpp"
#include "modelled_timeline.hpp"
#include "ring_allreduce.hpp"
#include "powersgd.hpp"
#include "topk_compression.hpp"
#include "worker_compute.hpp"

namespace dtsim::runtime {
namespace {

// The iterations of an all-reduce worker: backward hands each ready bucket to the communication thread,
// which runs `synchronise(iteration, bucket)` on it; the optimizer step waits for every bucket.
void run_iterations(MeasureSetup& setup, const std::function<void(int iteration, int bucket)>& synchronise) {
    CommunicationThread comm;
    for (int it = 0; it < setup.scenario.training.iterations; ++it) {
        compute_iteration(setup, it, [&](int k) { comm.submit([&synchronise, it, k] { synchronise(it, k); }); });
        comm.wait_idle();
        // training.optimizer: modelled as the simulator prices it (CostModel::optimizer_step_s).
        ModelledTimeline(setup, it).run("optimizer", 0,
                                        setup.costs.optimizer_step_s() * compute_effect(setup.scenario, setup.rank, it).factor);
        setup.log.iteration_done(it, setup.clock.now());
    }
}

// GPUs: the buckets live on the device and the communicator's library (NCCL) sums them there.
void run_device_allreduce_worker(MeasureSetup& setup, DeviceGradients& gradients) {
    std::vector<float> known;  // --verify: the bucket's gradients on the host, before and after
    run_iterations(setup, [&](int iteration, int k) {
        const double bytes = setup.plan.buckets[static_cast<size_t>(k)].bytes;
        if (setup.verify) {
            known.resize(gradient_elements(bytes));
            fill_gradients(known, setup.rank, iteration, k);
            gradients.upload(k, known);
        }
        const double start = setup.clock.now();
        gradients.allreduce(k);
        setup.log.add(Lane::comm, "allreduce", iteration, k, start, setup.clock.now(), bytes);
        if (setup.verify) {
            gradients.download(k, known);
            setup.wrong_sums += count_wrong_sums(known, setup.workers, iteration, k);
        }
    });
}

// What the CPU codecs keep per bucket between iterations, and their scratch buffers.
struct CodecState {
    explicit CodecState(std::size_t buckets) : residuals(buckets), halves(buckets), low_rank_q(buckets) {}
    std::vector<std::vector<float>> residuals;  // error feedback
    std::vector<std::vector<std::uint16_t>> halves;
    std::vector<SparseEntry> selected, gathered;
    TopkWorkspace topk;
    std::vector<unsigned char> blocks;
    std::vector<std::vector<float>> low_rank_q;  // PowerSGD's Q per bucket, warm-started
    std::vector<float> matrix, low_rank_p, approximation;
};

// One bucket of one iteration: its gradients, and its steps timed into the span log. The codecs' kernels
// are compute on the communication thread, as the simulator records them.
struct BucketStep {
    MeasureSetup& setup;
    int iteration;
    int k;
    std::vector<float>& values;
    std::size_t bucket() const { return static_cast<std::size_t>(k); }
    template <typename Work>
    void timed(Lane lane, const char* name, double bytes, const Work& work) const {
        const double start = setup.clock.now();
        work();
        setup.log.add(lane, name, iteration, k, start, setup.clock.now(), bytes);
    }
};

void sync_uncompressed(const BucketStep& step, double bucket_bytes) {
    step.timed(Lane::comm, "allreduce", bucket_bytes, [&] { allreduce_sum(step.values, step.setup.groups, step.k); });
}

// Cast, all-reduce in fp16, cast back.
void sync_fp16(const BucketStep& step, CodecState& state, double bucket_bytes) {
    auto& halves = state.halves[step.bucket()];
    step.timed(Lane::compute, "encode", 0, [&] { encode_half(step.values, halves); });
    step.timed(Lane::comm, "allreduce", bucket_bytes / 2, [&] { allreduce_sum_half(halves, step.setup.groups, step.k); });
    step.timed(Lane::compute, "decode", 0, [&] { decode_half(halves, step.values); });
}

// Quantization is inside the ring: each step quantizes what it sends.
void sync_int8(const BucketStep& step) {
    step.timed(Lane::comm, "allreduce", static_cast<double>(step.values.size()) + 4,
               [&] { ring_allreduce_int8(step.values, step.setup.worker_comm, step.k); });
}

// (index, value) pairs cannot be summed in place: every rank gathers everyone's.
void sync_topk(const BucketStep& step, CodecState& state, const CompressionSpec& compression) {
    const auto& setup = step.setup;
    const auto kept = topk_count(step.values.size(), compression.ratio);
    const std::size_t block_bytes = kept * sizeof(SparseEntry);
    auto* residual = compression.error_feedback ? &state.residuals[step.bucket()] : nullptr;
    step.timed(Lane::compute, "encode", 0, [&] { topk_encode(step.values, kept, residual, state.topk, state.selected); });
    state.blocks.resize(block_bytes * static_cast<size_t>(setup.workers));
    std::memcpy(state.blocks.data() + block_bytes * static_cast<size_t>(setup.rank), state.selected.data(), block_bytes);
    step.timed(Lane::comm, "allgather", static_cast<double>(block_bytes),
               [&] { ring_allgather(state.blocks, block_bytes, setup.worker_comm, step.k); });
    step.timed(Lane::compute, "decode", 0, [&] {
        state.gathered.resize(kept * static_cast<size_t>(setup.workers));
        std::memcpy(state.gathered.data(), state.blocks.data(), state.blocks.size());
        topk_decode_sum(state.gathered, step.values);
    });
}

// Two all-reduced low-rank factors, P then Q.
void sync_powersgd(const BucketStep& step, CodecState& state, const CompressionSpec& compression) {
    auto& values = step.values;
    auto& residual = state.residuals[step.bucket()];
    auto& q = state.low_rank_q[step.bucket()];
    const auto n = values.size(), m = powersgd_side(n), r = static_cast<std::size_t>(compression.rank);
    const double factor_bytes = 4.0 * static_cast<double>(m * r);
    if (q.empty()) q = initial_q(m, r, static_cast<unsigned>(step.k) + 1);
    step.timed(Lane::compute, "encode", 0, [&] {
        state.matrix.assign(m * m, 0.0f);
        for (std::size_t i = 0; i < n; ++i) state.matrix[i] = values[i] + (residual.empty() ? 0.0f : residual[i]);
        multiply_m_q(state.matrix, q, m, r, state.low_rank_p);
    });
    step.timed(Lane::comm, "allreduce", factor_bytes, [&] { allreduce_sum(state.low_rank_p, step.setup.groups, step.k); });
    step.timed(Lane::compute, "encode", 0, [&] {
        orthogonalise_columns(state.low_rank_p, m, r);
        multiply_mt_p(state.matrix, state.low_rank_p, m, r, q);
    });
    step.timed(Lane::comm, "allreduce", factor_bytes, [&] { allreduce_sum(q, step.setup.groups, step.k); });
    step.timed(Lane::compute, "decode", 0, [&] {
        multiply_p_qt(state.low_rank_p, q, m, r, state.approximation);
        if (compression.error_feedback) {  // what the low-rank sum missed of this worker's own gradient
            residual.resize(n);
            for (std::size_t i = 0; i < n; ++i) residual[i] = state.matrix[i] - state.approximation[i];
        }
        std::copy(state.approximation.begin(), state.approximation.begin() + static_cast<long>(n), values.begin());
    });
}

}  // namespace

void run_allreduce_worker(MeasureSetup& setup) {
    if (setup.device_gradients) return run_device_allreduce_worker(setup, *setup.device_gradients);
    const auto& buckets = setup.plan.buckets;
    const auto& compression = setup.scenario.training.compression;
    std::vector<std::vector<float>> gradients;
    for (const auto& bucket : buckets) gradients.emplace_back(gradient_elements(bucket.bytes));
    CodecState codecs(buckets.size());
    auto allreduce_bucket = [&](int iteration, int k) {
        const auto b = static_cast<size_t>(k);
        auto& values = gradients[b];
        fill_gradients(values, setup.rank, iteration, k);
        const BucketStep step{setup, iteration, k, values};
        switch (compression.kind) {
            case CompressionKind::fp16: sync_fp16(step, codecs, buckets[b].bytes); break;
            case CompressionKind::int8: sync_int8(step); break;
            case CompressionKind::topk: sync_topk(step, codecs, compression); break;
            case CompressionKind::powersgd: sync_powersgd(step, codecs, compression); break;
            case CompressionKind::none: sync_uncompressed(step, buckets[b].bytes); break;
        }
        if (setup.verify && compression.kind != CompressionKind::topk) {
            // int8: W-1 quantized partial sums and one quantized total, each off by at most half a step of
            // max|x| / 127, and no partial sum exceeds the largest total.
            const float tolerance = compression.kind == CompressionKind::int8
                                        ? static_cast<float>(setup.workers) * largest_summed_gradient(setup.workers) / 254
                                        : 0.0f;
            setup.wrong_sums += count_wrong_sums(values, setup.workers, iteration, k, 0, tolerance);
        }
    };
    run_iterations(setup, allreduce_bucket);
}

}  // namespace dtsim::runtime
