#include "allreduce_worker.hpp"

#include <cstdint>
#include <vector>

#include "communication_thread.hpp"
#include "gradient_data.hpp"
#include "half_precision.hpp"
#include "ring_allreduce.hpp"
#include "worker_compute.hpp"

namespace dtsim::runtime {

void run_allreduce_worker(MeasureSetup& setup) {
    const auto& buckets = setup.plan.buckets;
    std::vector<std::vector<float>> gradients;
    for (const auto& bucket : buckets) gradients.emplace_back(gradient_elements(bucket.bytes));
    const bool fp16 = setup.scenario.training.compression.kind == CompressionKind::fp16;
    std::vector<std::vector<std::uint16_t>> compressed(buckets.size());
    auto allreduce_bucket = [&setup, &gradients, &compressed, fp16](int iteration, int k) {
        auto& values = gradients[static_cast<size_t>(k)];
        fill_gradients(values, setup.rank, iteration, k);
        const double bucket_bytes = setup.plan.buckets[static_cast<size_t>(k)].bytes;
        if (!fp16) {
            const double start = setup.clock.now();
            ring_allreduce(values, setup.worker_comm, k);
            setup.log.add(Lane::comm, "allreduce", iteration, k, start, setup.clock.now(), bucket_bytes);
        } else {  // cast, all-reduce in fp16, cast back: the casts are compute on the communication thread
            auto& half = compressed[static_cast<size_t>(k)];
            double start = setup.clock.now();
            encode_half(values, half);
            setup.log.add(Lane::compute, "encode", iteration, k, start, setup.clock.now());
            start = setup.clock.now();
            ring_allreduce_half(half, setup.worker_comm, k);
            setup.log.add(Lane::comm, "allreduce", iteration, k, start, setup.clock.now(), bucket_bytes / 2);
            start = setup.clock.now();
            decode_half(half, values);
            setup.log.add(Lane::compute, "decode", iteration, k, start, setup.clock.now());
        }
        if (setup.verify) setup.wrong_sums += count_wrong_sums(values, setup.workers, iteration, k);
    };
    CommunicationThread comm;
    for (int it = 0; it < setup.scenario.training.iterations; ++it) {
        compute_iteration(setup, it, [&](int k) { comm.submit([&allreduce_bucket, it, k] { allreduce_bucket(it, k); }); });
        comm.wait_idle();  // the optimizer step needs every bucket's sum
        setup.log.iteration_done(it, setup.clock.now());
    }
}

}  // namespace dtsim::runtime
