#include "allreduce_worker.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "communication_thread.hpp"
#include "gradient_data.hpp"
#include "half_precision.hpp"
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

}  // namespace

void run_allreduce_worker(MeasureSetup& setup) {
    if (setup.device_gradients) return run_device_allreduce_worker(setup, *setup.device_gradients);
    const auto& buckets = setup.plan.buckets;
    const auto& compression = setup.scenario.training.compression;
    const auto bucket_count = buckets.size();
    std::vector<std::vector<float>> gradients, residuals(bucket_count);
    for (const auto& bucket : buckets) gradients.emplace_back(gradient_elements(bucket.bytes));
    std::vector<std::vector<std::uint16_t>> halves(bucket_count);
    std::vector<SparseEntry> selected, gathered;
    std::vector<unsigned char> blocks;
    std::vector<std::vector<float>> low_rank_q(bucket_count);  // PowerSGD's Q per bucket, warm-started
    std::vector<float> matrix, low_rank_p, approximation;

    auto timed = [&setup](Lane lane, const char* name, int iteration, int k, double bytes, const auto& work) {
        const double start = setup.clock.now();
        work();
        setup.log.add(lane, name, iteration, k, start, setup.clock.now(), bytes);
    };
    // The codecs' kernels are compute on the communication thread, as the simulator records them.
    auto allreduce_bucket = [&](int iteration, int k) {
        const auto b = static_cast<size_t>(k);
        auto& values = gradients[b];
        fill_gradients(values, setup.rank, iteration, k);
        const double bucket_bytes = buckets[b].bytes;
        switch (compression.kind) {
            case CompressionKind::fp16:  // cast, all-reduce in fp16, cast back
                timed(Lane::compute, "encode", iteration, k, 0, [&] { encode_half(values, halves[b]); });
                timed(Lane::comm, "allreduce", iteration, k, bucket_bytes / 2,
                      [&] { allreduce_sum_half(halves[b], setup.groups, k); });
                timed(Lane::compute, "decode", iteration, k, 0, [&] { decode_half(halves[b], values); });
                break;
            case CompressionKind::int8:  // quantization is inside the ring: each step quantizes what it sends
                timed(Lane::comm, "allreduce", iteration, k, static_cast<double>(values.size()) + 4,
                      [&] { ring_allreduce_int8(values, setup.worker_comm, k); });
                break;
            case CompressionKind::topk: {  // pairs cannot be summed in place: every rank gathers everyone's
                const auto kept = topk_count(values.size(), compression.ratio);
                const std::size_t block_bytes = kept * sizeof(SparseEntry);
                timed(Lane::compute, "encode", iteration, k, 0,
                      [&] { topk_encode(values, kept, compression.error_feedback ? &residuals[b] : nullptr, selected); });
                blocks.resize(block_bytes * static_cast<size_t>(setup.workers));
                std::memcpy(blocks.data() + block_bytes * static_cast<size_t>(setup.rank), selected.data(), block_bytes);
                timed(Lane::comm, "allgather", iteration, k, static_cast<double>(block_bytes),
                      [&] { ring_allgather(blocks, block_bytes, setup.worker_comm, k); });
                timed(Lane::compute, "decode", iteration, k, 0, [&] {
                    gathered.resize(kept * static_cast<size_t>(setup.workers));
                    std::memcpy(gathered.data(), blocks.data(), blocks.size());
                    topk_decode_sum(gathered, values);
                });
                break;
            }
            case CompressionKind::powersgd: {
                const auto n = values.size(), m = powersgd_side(n), r = static_cast<std::size_t>(compression.rank);
                const double factor_bytes = 4.0 * static_cast<double>(m * r);
                if (low_rank_q[b].empty()) low_rank_q[b] = initial_q(m, r, static_cast<unsigned>(k) + 1);
                timed(Lane::compute, "encode", iteration, k, 0, [&] {
                    matrix.assign(m * m, 0.0f);
                    for (std::size_t i = 0; i < n; ++i) matrix[i] = values[i] + (residuals[b].empty() ? 0.0f : residuals[b][i]);
                    multiply_m_q(matrix, low_rank_q[b], m, r, low_rank_p);
                });
                timed(Lane::comm, "allreduce", iteration, k, factor_bytes, [&] { allreduce_sum(low_rank_p, setup.groups, k); });
                timed(Lane::compute, "encode", iteration, k, 0, [&] {
                    orthogonalise_columns(low_rank_p, m, r);
                    multiply_mt_p(matrix, low_rank_p, m, r, low_rank_q[b]);
                });
                timed(Lane::comm, "allreduce", iteration, k, factor_bytes, [&] { allreduce_sum(low_rank_q[b], setup.groups, k); });
                timed(Lane::compute, "decode", iteration, k, 0, [&] {
                    multiply_p_qt(low_rank_p, low_rank_q[b], m, r, approximation);
                    if (compression.error_feedback) {  // what the low-rank sum missed of this worker's own gradient
                        residuals[b].resize(n);
                        for (std::size_t i = 0; i < n; ++i) residuals[b][i] = matrix[i] - approximation[i];
                    }
                    std::copy(approximation.begin(), approximation.begin() + static_cast<long>(n), values.begin());
                });
                break;
            }
            default:  // none
                timed(Lane::comm, "allreduce", iteration, k, bucket_bytes, [&] { allreduce_sum(values, setup.groups, k); });
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
