// dtsim-runtime measure on LLM layouts under mpirun on loopback: a pipeline runs its schedule's passes
// with the tensor-parallel collectives of every block, ZeRO-3 moves 3Ψ per rank against data
// parallelism's 2Ψ, and what cannot be measured is refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "measure_support.hpp"

namespace runtime_measure_llm_test {

using namespace dtsim;
using test::measure;

namespace {

// GPT-3 125M (12 blocks) at 16 tokens per sequence: its compute is microseconds on an H100.
std::string llm_scenario(int gpus, const std::string& training_yaml) {
    return "name: llm-measured\n"
           "cluster: {nodes: " + std::to_string(gpus) + ", gpus_per_node: 1, gpu: h100-sxm, nic: {bandwidth: 10Gbps, latency: 5us}}\n"
           "model: {zoo: gpt3-125m, precision: bf16, micro_batch: 1, sequence_length: 16}\n"
           "training:\n  iterations: 2\n  strategy: {kind: allreduce, algorithm: ring, bucket: 50MB}\n" + training_yaml;
}

long count(const Run& run, int rank, const std::string& name) {
    return std::count_if(run.spans.begin(), run.spans.end(), [&](const Span& s) { return s.rank == rank && s.name == name; });
}

double bytes(const Run& run, const std::string& prefix) {
    double total = 0;
    for (const auto& s : run.spans)
        if (s.rank == 0 && s.name.starts_with(prefix)) total += s.bytes;
    return total;
}

}  // namespace

TEST_CASE("a 4-stage 1F1B pipeline runs m forwards and m backwards per stage, with pipeline sends between them", "[mpi][measure][llm]") {
    const int m = 6, iterations = 2;
    const auto measured = measure(4, llm_scenario(4, "  parallelism: {pipeline: 4}\n  pipeline: {schedule: 1f1b, microbatches: 6}\n"));
    CAPTURE(measured.result.output);
    REQUIRE(measured.result.exit_code == 0);
    const auto& run = measured.run;
    REQUIRE(run.iterations.size() == static_cast<size_t>(iterations));
    for (int stage = 0; stage < 4; ++stage) {
        CAPTURE(stage);
        CHECK(count(run, stage, "forward") == m * iterations);
        CHECK(count(run, stage, "backward") == m * iterations);
        CHECK(count(run, stage, "optimizer") == iterations);
        // Activations go down to every stage but the last, gradients up to every stage but the first.
        CHECK(count(run, stage, "pp send") == ((stage < 3) + (stage > 0)) * m * iterations);
        CHECK(count(run, stage, "pipeline bubble") == ((stage > 0) + (stage < 3)) * m * iterations);
    }
}

TEST_CASE("tensor parallelism reduces after every attention and MLP block in both passes, and only there", "[mpi][measure][llm]") {
    // T2 x P2: each stage has 6 of the 12 blocks, 2 collectives each per pass, 2m passes per iteration.
    const int m = 2, iterations = 2, per_pass = 2 * 6;
    for (const bool sequence_parallel : {false, true}) {
        CAPTURE(sequence_parallel);
        const auto measured = measure(4, llm_scenario(4, "  parallelism: {tensor: 2, pipeline: 2, sequence_parallel: " +
                                                             std::string(sequence_parallel ? "true" : "false") +
                                                             "}\n  pipeline: {schedule: 1f1b, microbatches: 2}\n"));
        CAPTURE(measured.result.output);
        REQUIRE(measured.result.exit_code == 0);
        for (int rank = 0; rank < 4; ++rank) {
            CAPTURE(rank);
            const long expected = per_pass * 2 * m * iterations;
            if (sequence_parallel) {
                CHECK(count(measured.run, rank, "tp reduce-scatter") == expected);
                CHECK(count(measured.run, rank, "tp allgather") == expected);
                CHECK(count(measured.run, rank, "tp allreduce") == 0);
            } else {
                CHECK(count(measured.run, rank, "tp allreduce") == expected);
            }
        }
    }
}

TEST_CASE("ZeRO-3 moves 3 Psi per rank and iteration where data parallelism's all-reduce moves 2 Psi", "[mpi][measure][llm]") {
    auto data_parallel = [](int zero) {
        return measure(2, llm_scenario(2, "  parallelism: {data: 2}\n  pipeline: {microbatches: 1}\n  zero: " +
                                              std::to_string(zero) + "\n"));
    };
    const auto plain = data_parallel(0), zero3 = data_parallel(3);
    CAPTURE(plain.result.output, zero3.result.output);
    REQUIRE(plain.result.exit_code == 0);
    REQUIRE(zero3.result.exit_code == 0);
    const double psi = bytes(plain.run, "dp allreduce");  // the rank's gradients, once
    CHECK(psi > 2e8);  // GPT-3 125M in bf16
    CHECK(bytes(plain.run, "dp reduce-scatter") + bytes(plain.run, "dp allgather") == 0);
    // An all-reduce moves its buffer twice (reduce-scatter, then all-gather); ZeRO-3 gathers the
    // parameters for forward and for backward and reduce-scatters the gradients once.
    CHECK(bytes(zero3.run, "dp allgather") == Approx(2 * psi));
    CHECK(bytes(zero3.run, "dp reduce-scatter") == Approx(psi));
    CHECK(bytes(zero3.run, "dp allreduce") == 0);
}

TEST_CASE("LLM layouts the runtime cannot measure are refused with one message", "[mpi][measure][llm]") {
    const auto gemm = measure(4, llm_scenario(4, "  parallelism: {pipeline: 4}\n  pipeline: {microbatches: 4}\n"), {"--compute", "gemm"});
    CHECK(gemm.result.exit_code == 2);
    CHECK(gemm.result.output.find("--compute gemm") != std::string::npos);
    const auto nccl = measure(4, llm_scenario(4, "  parallelism: {pipeline: 4}\n  pipeline: {microbatches: 4}\n"), {"--backend", "nccl"});
    CHECK(nccl.result.exit_code == 2);
    CHECK(nccl.result.output.find("pipeline sends are not measured with --backend nccl") != std::string::npos);
}

}  // namespace runtime_measure_llm_test
