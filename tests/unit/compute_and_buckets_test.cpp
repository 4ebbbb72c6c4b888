#include <catch2/catch.hpp>

#include "dtsim/compute_model.hpp"
#include "dtsim/buckets.hpp"
#include "dtsim/run_metrics.hpp"

namespace compute_and_buckets_test {

using namespace dtsim;

TEST_CASE("layer time is the roofline maximum of compute and memory time", "[unit][compute]") {
    ZooModel model;
    model.layers = {{"gemm", 1000, 2e12, 10}, {"elementwise", 0, 1, 1e9}};
    const ComputeRates rates{1e12, 1e9};
    const auto layers = layer_times(model, 1, Precision::fp32, rates);
    // Compute-bound: 2e12 FLOPs at 1e12 FLOP/s.
    CHECK(layers[0].forward_s == Approx(2.0));
    CHECK(layers[0].backward_s == Approx(4.0));
    CHECK(layers[0].gradient_bytes == 4000);
    // Memory-bound: (10 + 1e9) elements × 4 bytes at 1e9 B/s.
    CHECK(layers[1].forward_s == Approx((10 + 1e9) * 4 / 1e9));
}

TEST_CASE("buckets fill in backward order and close at the bucket size", "[unit][buckets]") {
    std::vector<LayerWork> model;
    for (int i = 0; i < 10; ++i) model.push_back({"l" + std::to_string(i), 10e6, 0.001, 0.002});
    const auto plan = make_buckets(model, 25e6);
    int layers = plan.trailing_layers;
    for (const auto& bucket : plan.buckets) layers += bucket.layers;
    CHECK(layers == static_cast<int>(model.size()));  // every layer in exactly one bucket or the tail
    REQUIRE(plan.buckets.size() == 4);  // 30 + 30 + 30 + 10 MB
    CHECK(plan.buckets[0].bytes == Approx(30e6));
    CHECK(plan.buckets[3].bytes == Approx(10e6));
    CHECK(plan.buckets[0].backward_s == Approx(0.006));
    double total = 0;
    for (const auto& b : plan.buckets) total += b.bytes;
    CHECK(total == Approx(100e6));

    const auto one = make_buckets(model, 1e12);
    REQUIRE(one.buckets.size() == 1);
    CHECK(one.buckets[0].bytes == Approx(100e6));
}

TEST_CASE("summary metrics follow from iteration ends and spans", "[unit][metrics]") {
    Scenario scenario;
    scenario.cluster.nodes = 2;
    scenario.model.batch_per_gpu = 10;
    scenario.model.direct = DirectModel{1e6, 0.1, 0.2, 1};
    const std::vector<Span> spans{{0, Lane::compute, "forward", 1, 0, 1.0, 1.3},
                                  {1, Lane::compute, "forward", 1, 0, 1.0, 1.3},
                                  {0, Lane::comm, "allreduce", 1, 0, 1.3, 1.5},
                                  {1, Lane::comm, "allreduce", 1, 0, 1.3, 1.5}};
    std::vector<IterationRecord> iterations;
    const auto s = summarize(scenario, CostModel(scenario), spans, {1.0, 1.5}, iterations);
    REQUIRE(iterations.size() == 2);
    CHECK(iterations[1].time_s == Approx(0.5));
    CHECK(s.iteration_time_s == Approx(0.5));      // the first iteration is excluded
    CHECK(s.samples_per_s == Approx(2 * 10 / 0.5));
    CHECK(s.single_gpu_iteration_time_s == Approx(0.3));
    CHECK(s.speedup == Approx(2 * 0.3 / 0.5));
    CHECK(s.scaling_efficiency == Approx(0.3 / 0.5));
    CHECK(s.compute_time_s == Approx(0.3));
    CHECK(s.comm_time_s == Approx(0.2));
    CHECK(s.exposed_comm_time_s == Approx(0.2));
}

}  // namespace compute_and_buckets_test
