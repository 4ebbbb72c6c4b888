// `dtsim plan`: on the ideal network with links so fast that communication costs almost nothing, the one
// fastest configuration is plain data parallelism (every other layout runs more kernels per GPU or waits in
// a pipeline bubble), and plan finds it, the same way every time; configurations that do not fit in memory
// are counted and never simulated.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "test_support.hpp"

namespace plan_cli_test {

using namespace dtsim;

namespace {

// The table's rows: the lines after its rule ("  -  ----") up to the first empty one.
std::vector<std::string> table_rows(const std::string& output) {
    std::vector<std::string> rows;
    std::istringstream in(output);
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (inside && line.empty()) break;
        if (inside) rows.push_back(line);
        inside = inside || line.rfind("  -  --", 0) == 0;
    }
    return rows;
}

// The iteration time column of a row, in the unit it is printed with.
double iteration_ms(const std::string& row) {
    std::istringstream in(row);
    std::string word, previous;
    while (in >> word) {
        if (word == "ms") return std::stod(previous);
        previous = word;
    }
    return -1;
}

}  // namespace

TEST_CASE("plan finds the one fastest configuration of a closed-form case, deterministically", "[integration][cli][plan]") {
    test::TempDir dir;
    std::ofstream(dir.file("plan.yaml"))
        << "name: plan-closed-form\n"
           "cluster: {nodes: 1, gpus_per_node: 2, gpu: h100-sxm, intra_node: {bandwidth: 100Tbps, latency: 0us},"
           " nic: {bandwidth: 100Tbps, latency: 0us}, network_model: ideal}\n"
           "model: {zoo: gpt3-125m, precision: bf16, micro_batch: 1}\n"
           "training: {iterations: 1, fidelity: flow, global_batch: 4, strategy: {kind: allreduce, bucket: 1GB}}\n";
    // dp2 (2 microbatches per GPU), tp2, cp2 (4 microbatches of half the work: twice the kernels), and pp2
    // under gpipe, 1f1b and interleaving (4 microbatches and a bubble).
    const std::vector<std::string> args{"plan", dir.file("plan.yaml"), "--search", "zero=0", "--search", "recompute=none",
                                        "--search", "micro_batch=1", "--margin", "10", "--jobs", "2", "--quiet"};
    const auto result = test::run_dtsim(args);
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("8 configuration(s) enumerated, 0 refused") && Catch::Contains("8 simulated"));
    const auto rows = table_rows(result.output);
    REQUIRE(rows.size() == 8);
    CHECK_THAT(rows[0], Catch::StartsWith("  1  dp2 mb1×2 zero0 none "));
    CHECK(iteration_ms(rows[0]) < iteration_ms(rows[1]));
    const auto again = test::run_dtsim(args);
    CHECK(table_rows(again.output) == rows);
}

TEST_CASE("plan never simulates a configuration that does not fit in memory", "[integration][cli][plan]") {
    test::TempDir dir;
    std::ofstream(dir.file("plan.yaml"))
        << "name: plan-memory\n"
           "cluster: {nodes: 1, gpus_per_node: 2, gpu: h100-sxm, intra_node: nvlink4, nic: ib-ndr, network_model: ideal}\n"
           "model: {zoo: llama2-7b, precision: bf16, micro_batch: 1}\n"
           "training: {iterations: 1, fidelity: flow, global_batch: 2, strategy: {kind: allreduce, bucket: 1GB}}\n";
    // Llama 2 7B over 2 data-parallel GPUs: ZeRO-0 holds 16 bytes per parameter, 108 GB (does not fit in
    // 80 GB); ZeRO-1 to 3 shard enough.
    const auto result = test::run_dtsim({"plan", dir.file("plan.yaml"), "--search", "tensor=1", "--search", "pipeline=1",
                                         "--search", "context=1", "--search", "recompute=full", "--margin", "10", "--jobs", "2",
                                         "--quiet", "--db", dir.file("runs.db")});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("4 configuration(s) enumerated") &&
                                  Catch::Contains("1: weights, gradients and optimizer states alone exceed") &&
                                  Catch::Contains("3 simulated"));
    const auto list = test::run_dtsim({"runs", "list", "--db", dir.file("runs.db")});
    CAPTURE(list.output);
    CHECK(test::occurrences(list.output, "plan-memory") == 3);
    CHECK(test::occurrences(list.output, "zero3") == 1);
    CHECK(test::occurrences(list.output, "training.zero=0") == 0);
}

TEST_CASE("plan searches FSDP's hybrid sharding, which simulate accepts", "[integration][cli][plan]") {
    test::TempDir dir;
    std::ofstream(dir.file("plan.yaml"))
        << "name: plan-fsdp\n"
           "cluster: {nodes: 2, gpus_per_node: 2, gpu: h100-sxm, intra_node: nvlink4, nic: ib-ndr, network_model: ideal}\n"
           "model: {zoo: gpt3-125m, precision: bf16, micro_batch: 1}\n"
           "training: {iterations: 1, fidelity: flow, global_batch: 4, zero: 1, strategy: {kind: allreduce, bucket: 1GB}}\n";
    // Data 4 over 2 nodes of 2: ZeRO 0-3 and hybrid FSDP (shards of 2 within a node, 2 replicas); the
    // scenario's zero key gives way to the FSDP strategy.
    const auto result = test::run_dtsim({"plan", dir.file("plan.yaml"), "--search", "tensor=1", "--search", "pipeline=1", "--search",
                                         "context=1", "--search", "micro_batch=1", "--search", "recompute=none", "--margin", "10",
                                         "--jobs", "2", "--quiet"});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("5 configuration(s) enumerated, 0 refused") && Catch::Contains("5 simulated"));
    CHECK_THAT(result.output, Catch::Contains("dp4 mb1×1 fsdp hybrid none"));
}

TEST_CASE("plan's counts and table do not depend on how many threads check the configurations", "[integration][cli][plan]") {
    test::TempDir dir;
    std::ofstream(dir.file("plan.yaml"))
        << "name: plan-threads\n"
           "cluster: {nodes: 2, gpus_per_node: 2, gpu: h100-sxm, intra_node: nvlink4, nic: ib-ndr, network_model: ideal}\n"
           "model: {zoo: llama2-7b, precision: bf16, micro_batch: 1}\n"
           "training: {iterations: 1, fidelity: flow, global_batch: 8, strategy: {kind: allreduce, bucket: 1GB}}\n";
    // The whole space of Llama 2 7B on 4 GPUs: some refused by the loader, some too big for 80 GB, the
    // rest estimated; checked by one thread and by three, the same counts, estimates and ranking.
    const auto plan = [&](const std::string& jobs) {
        return std::vector<std::string>{"plan", dir.file("plan.yaml"), "--simulate", "2", "--jobs", jobs, "--quiet"};
    };
    const auto runs = test::run_dtsim_each({plan("1"), plan("3")});
    const auto& one = runs[0];
    CAPTURE(one.output);
    REQUIRE(one.exit_code == 0);
    // Every way a check ends is taken: refused, too big, and fitting.
    CHECK_THAT(one.output, !Catch::Contains(", 0 refused") && Catch::Contains(" refused by the scenario's checks") &&
                               Catch::Contains("do not fit in 80 GB") && Catch::Contains("2 simulated"));
    CHECK(runs[1].output == one.output);
}

TEST_CASE("plan refuses what it cannot plan, naming the key", "[integration][cli][plan]") {
    const auto scenario = (test::source_dir() / "scenarios" / "llm-llama2-7b-h100-3d.yaml").string();
    const auto gpus = test::run_dtsim({"plan", scenario, "--gpus", "12"});
    CHECK(gpus.exit_code == 2);
    CHECK_THAT(gpus.output, Catch::Contains("--gpus 12: expected a multiple of the scenario's 8 GPUs per node"));
    const auto no_gpus = test::run_dtsim({"plan", scenario, "--gpus", "0"});
    CHECK(no_gpus.exit_code == 2);
    CHECK_THAT(no_gpus.output, Catch::Contains("--gpus: expected a number greater than 0, got '0'"));
    const auto search = test::run_dtsim({"plan", scenario, "--search", "schedule=zigzag"});
    CHECK(search.exit_code == 2);
    CHECK_THAT(search.output, Catch::Contains("'zigzag' is not a value of schedule"));
    const auto objective = test::run_dtsim({"plan", scenario, "--objective", "speed"});
    CHECK(objective.exit_code == 2);
    CHECK_THAT(objective.output, Catch::Contains("expected time | cost | tokens-per-dollar"));
    const auto resnet = test::run_dtsim({"plan", (test::source_dir() / "scenarios" / "resnet50-h100-ring.yaml").string()});
    CHECK(resnet.exit_code == 2);
    CHECK_THAT(resnet.output, Catch::Contains("key 'model.zoo': plan needs a transformer from the zoo"));
}

}  // namespace plan_cli_test
