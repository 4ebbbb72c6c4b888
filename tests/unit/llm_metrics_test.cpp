// The summary of an LLM layout's timeline, from hand-made spans: throughput of the global batch, MFU and
// HFU as the Megatron papers count FLOPs, the pipeline bubble, and exposed communication per dimension.
#include <catch2/catch.hpp>

#include "dtsim/cost_model.hpp"
#include "dtsim/memory_model.hpp"
#include "dtsim/run_metrics.hpp"
#include "dtsim/timeline_names.hpp"

namespace llm_metrics_test {

using namespace dtsim;

namespace {

// GPT-3 125M (s = 2048, h = 768, 12 layers, V = 50257) on 4 H100s as tp 2 × pp 2, so one data-parallel
// replica: 4 microbatches of 2 sequences, a global batch of 8.
const char* kLayout =
    "name: gpt\n"
    "cluster: {nodes: 1, gpus_per_node: 4, gpu: h100-sxm, nic: ib-ndr}\n"
    "model: {zoo: gpt3-125m, precision: bf16, micro_batch: 2}\n"
    "training:\n"
    "  strategy: {kind: allreduce}\n"
    "  parallelism: {tensor: 2, pipeline: 2}\n"
    "  pipeline: {schedule: 1f1b, microbatches: 4}\n"
    "  recompute: selective\n";

Span compute(int rank, int iteration, double start, double end) { return {rank, Lane::compute, "forward", iteration, 0, start, end}; }
Span comm(int rank, const char* name, int iteration, double start, double end) { return {rank, Lane::comm, name, iteration, 0, start, end}; }
Span waiting(int rank, const char* name, double start, double end) { return {rank, Lane::wait, name, 1, 0, start, end}; }

// Two iterations ending at 1 s and 3 s: only the second (2 s) is measured.
RunSummary summarize_layout(const Scenario& scenario, const std::vector<Span>& spans) {
    std::vector<IterationRecord> iterations;
    return summarize(scenario, CostModel(scenario), spans, {1.0, 3.0}, iterations);
}

}  // namespace

TEST_CASE("a span's dimension is the first word of its name", "[unit][metrics]") {
    CHECK(span_dimension("tp allreduce") == Dimension::tp);
    CHECK(span_dimension("dp reduce-scatter") == Dimension::dp);
    CHECK(span_dimension("ep alltoall") == Dimension::ep);
    CHECK_FALSE(span_dimension("allreduce"));
    CHECK_FALSE(span_dimension("forward"));
    CHECK_FALSE(span_dimension(kPipelineBubbleSpan));
    CHECK_FALSE(span_dimension("tpx allreduce"));
}

TEST_CASE("throughput counts the global batch, and speedup is against one GPU training it", "[unit][metrics]") {
    const auto scenario = load_scenario_text(kLayout, "gpt.yaml");
    const CostModel costs(scenario);
    const auto s = summarize_layout(scenario, {});
    CHECK(s.iteration_time_s == Approx(2.0));
    CHECK(s.samples_per_s == Approx(8 / 2.0));  // one replica's 8 sequences, not 4 GPUs × 8
    CHECK(s.tokens_per_s == Approx(8 * 2048 / 2.0));
    // The zoo's layers are already at 2048 tokens: the whole model on one GPU is the data-parallel reference.
    const double sequence_s = costs.single_gpu_iteration_s() / 8;
    CHECK(costs.llm()->single_gpu_sequence_s == Approx(sequence_s));
    CHECK(s.single_gpu_iteration_time_s == Approx(sequence_s * 8 / 4));
    CHECK(s.speedup == Approx(sequence_s * 8 / 2.0));
    CHECK(s.scaling_efficiency == Approx(s.speedup / 4));
}

TEST_CASE("MFU and HFU count FLOPs as the Megatron papers do", "[unit][metrics]") {
    const auto s = summarize_layout(load_scenario_text(kLayout, "gpt.yaml"), {});
    // Per sequence, forward: 24·s·h² + 4·s²·h per layer and 2·s·h·V for the logits; training is 3 × that.
    const double sq = 2048, h = 768, layers = 12, vocabulary = 50257;
    const double model_flops = 3 * (layers * (24 * sq * h * h + 4 * sq * sq * h) + 2 * sq * h * vocabulary);
    CHECK(model_flops == Approx(1981818077184.0));
    const double peak = 989e12, gpus = 4, sequences_per_s = 8 / 2.0;
    CHECK(s.model_flops_utilisation == Approx(model_flops * sequences_per_s / (gpus * peak)));
    CHECK(s.tflops_per_gpu == Approx(model_flops * sequences_per_s / gpus / 1e12));
    // Selective recomputation runs each layer's attention core (4·s²·h FLOPs) forward again.
    const double hardware_flops = model_flops + layers * 4 * sq * sq * h;
    CHECK(s.hardware_flops_utilisation == Approx(hardware_flops * sequences_per_s / (gpus * peak)));
}

TEST_CASE("exposed communication per dimension is what no compute of the rank covers", "[unit][metrics]") {
    const auto scenario = load_scenario_text(kLayout, "gpt.yaml");
    const std::vector<Span> spans{
        compute(0, 1, 1.0, 1.4), compute(0, 1, 1.6, 2.0),
        comm(0, "tp allreduce", 1, 1.3, 1.5),   // with the next: [1.3, 1.55], of which [1.4, 1.55] is exposed
        comm(0, "tp allreduce", 1, 1.45, 1.55),
        comm(0, "pp send", 1, 1.5, 1.7),        // [1.5, 1.6] exposed
        comm(0, "dp allreduce", 1, 2.5, 2.8),   // all exposed
        comm(0, "tp allreduce", 0, 0.5, 0.9),   // the first iteration is not measured
        comm(0, "allreduce", 1, 2.0, 3.0),      // no dimension
        compute(1, 1, 1.0, 2.0),
        comm(1, "tp allreduce", 1, 1.2, 1.3),   // hidden
        comm(1, "ep alltoall", 1, 2.0, 2.2),
        comm(2, "cp allgather", 1, 1.0, 1.1),
        compute(3, 0, 0.9, 1.2),                // a pass of the first iteration still hides a gather of the second
        comm(3, "dp allgather", 1, 1.1, 1.3),
    };
    const auto s = summarize_layout(scenario, spans);
    CHECK(s.exposed_tp_s == Approx(0.15 / 4));
    CHECK(s.exposed_pp_s == Approx(0.1 / 4));
    CHECK(s.exposed_dp_s == Approx((0.3 + 0.1) / 4));
    CHECK(s.exposed_ep_s == Approx(0.2 / 4));
    CHECK(s.exposed_cp_s == Approx(0.1 / 4));
}

TEST_CASE("the bubble fraction is the pipeline-bubble waits' share of the iteration", "[unit][metrics]") {
    const auto scenario = load_scenario_text(kLayout, "gpt.yaml");
    const auto s = summarize_layout(scenario, {waiting(0, "pipeline bubble", 2.0, 2.5), waiting(2, "pipeline bubble", 1.0, 1.3),
                                               waiting(1, "wait for gradients", 1.0, 2.0)});
    CHECK(s.bubble_fraction == Approx((0.5 + 0.3) / 4 / 2.0));
    CHECK(s.wait_time_s == Approx((0.5 + 0.3 + 1.0) / 4));
}

TEST_CASE("every run reports its memory per GPU", "[unit][metrics]") {
    const auto layout = load_scenario_text(kLayout, "gpt.yaml");
    const auto s = summarize_layout(layout, {});
    const auto estimate = estimate_memory(layout);
    CHECK(s.memory_per_gpu_bytes == Approx(estimate.peak()));
    CHECK(s.memory_capacity_bytes == Approx(80e9));
    CHECK(s.fits);

    // Data parallelism with a zoo model: the whole model on every GPU; MFU from 3 × its forward FLOPs.
    const auto replicated = load_scenario_text("name: dp\n"
                                               "cluster: {nodes: 1, gpus_per_node: 4, gpu: h100-sxm, nic: ib-ndr}\n"
                                               "model: {zoo: gpt3-125m, precision: bf16, batch_per_gpu: 2}\n"
                                               "training: {strategy: {kind: allreduce}}\n",
                                               "dp.yaml");
    const auto d = summarize_layout(replicated, {});
    CHECK(d.memory_per_gpu_bytes == Approx(estimate_memory(replicated).peak()));
    CHECK(d.fits);
    CHECK(d.samples_per_s == Approx(4 * 2 / 2.0));
    CHECK(d.tokens_per_s == Approx(4 * 2 * 2048 / 2.0));
    CHECK(d.model_flops_utilisation == Approx(3 * replicated.model.zoo->forward_flops_per_sample() * d.samples_per_s / (4 * 989e12)));
}

TEST_CASE("an LLM layout is described by its degrees and what is not the default", "[unit][metrics]") {
    const auto layout = load_scenario_text(kLayout, "gpt.yaml");
    CHECK(describe_strategy(layout.training) == "tp2 pp2 1f1b recompute selective");
    const auto zero = load_scenario_text(kLayout, "gpt.yaml", {"training.zero=1", "training.recompute=none",
                                                                "training.parallelism={tensor: 2, pipeline: 2, sequence_parallel: true}"});
    CHECK(describe_strategy(zero.training) == "tp2 sp pp2 1f1b zero1");
    const auto named = load_scenario_text(kLayout, "gpt.yaml", {"training.zero=2", "training.recompute=none",
                                                                 "training.strategy.reduce_precision=fp32",
                                                                 "training.pipeline={schedule: 1f1b, microbatches: 4, embedding_in_split: true, loss_in_split: true}"});
    CHECK(describe_strategy(named.training) == "tp2 pp2 1f1b emb+loss zero2 grads fp32");
    const auto fsdp = load_scenario_text("name: fsdp\n"
                                         "cluster: {nodes: 1, gpus_per_node: 4, gpu: h100-sxm, nic: ib-ndr}\n"
                                         "model: {zoo: gpt3-125m, precision: bf16, micro_batch: 1}\n"
                                         "training: {strategy: {kind: fsdp, sharding: full}}\n",
                                         "fsdp.yaml");
    CHECK(describe_strategy(fsdp.training) == "dp4 fsdp full");
    CHECK(describe_strategy(load_scenario_text("name: dp\ncluster: {nodes: 2, gpu: h100-sxm, nic: ib-ndr}\nmodel: {zoo: resnet50, batch_per_gpu: 32}\n"
                                             "training: {strategy: {kind: allreduce}}\n", "dp.yaml").training) ==
          "allreduce/nccl");
    // The all-reduce defaults to the device's collectives library: NCCL on GPUs, MPI's ring between CPU workers.
    CHECK(describe_strategy(load_scenario_text("name: dp\ncluster: {nodes: 2, gpu: cpu, nic: eth-10g}\nmodel: {zoo: resnet50, batch_per_gpu: 32}\n"
                                             "training: {strategy: {kind: allreduce}}\n", "dp.yaml").training) ==
          "allreduce/ring");
}

}  // namespace llm_metrics_test
