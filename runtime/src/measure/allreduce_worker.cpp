#include "allreduce_worker.hpp"

#include <vector>

#include "communication_thread.hpp"
#include "gradient_data.hpp"
#include "ring_allreduce.hpp"
#include "worker_compute.hpp"

namespace dtsim::runtime {

void run_allreduce_worker(MeasureSetup& setup) {
    const auto& buckets = setup.plan.buckets;
    std::vector<std::vector<float>> gradients;
    for (const auto& bucket : buckets) gradients.emplace_back(gradient_elements(bucket.bytes));
    auto allreduce_bucket = [&setup, &gradients](int iteration, int k) {
        auto& values = gradients[static_cast<size_t>(k)];
        fill_gradients(values, setup.rank, iteration, k);
        const double start = setup.clock.now();
        ring_allreduce(values, setup.worker_comm, k);
        setup.log.add(Lane::comm, "allreduce", iteration, k, start, setup.clock.now(), setup.plan.buckets[static_cast<size_t>(k)].bytes);
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
