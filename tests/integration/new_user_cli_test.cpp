// What a new user trips over (issue 22), end to end: a profile of another GPU, sizes without a unit,
// and models outside the zoo.
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "test_support.hpp"

namespace new_user_cli_test {

using namespace dtsim;

namespace {

std::string shipped(const std::string& name) { return (test::source_dir() / "scenarios" / name).string(); }

const std::vector<std::string> kSmall = {"--set", "cluster.nodes=2", "--set", "training.iterations=1", "--set",
                                         "training.fidelity=step"};

test::CommandResult simulate(const std::vector<std::string>& sets, const std::string& flag = "") {
    std::vector<std::string> arguments{"simulate", shipped("resnet50-h100-ring.yaml")};
    if (!flag.empty()) arguments.push_back(flag);
    arguments.insert(arguments.end(), kSmall.begin(), kSmall.end());
    for (const auto& set : sets) arguments.insert(arguments.end(), {"--set", set});
    return test::run_dtsim(arguments);
}

}  // namespace

TEST_CASE("a profile of another GPU given with --set is refused, and allowed only when asked", "[integration][cli][profile]") {
    const auto refused = simulate({"profile=dgx-a100.datasheet"});
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.output, Catch::Contains("command line (--set profile=dgx-a100.datasheet): key 'profile'") &&
                                   Catch::Contains("made for GPU a100-sxm, but the scenario's is h100-sxm"));
    CHECK(simulate({"profile=dgx-a100.datasheet", "profile_mismatch=allow"}).exit_code == 0);
    CHECK(simulate({"profile=dgx-h100.datasheet"}).exit_code == 0);
}

TEST_CASE("implausible sizes warn once and do not change the exit code", "[integration][cli]") {
    const auto bucket = simulate({"training.strategy.bucket=25"});
    CHECK(bucket.exit_code == 0);
    CHECK(test::occurrences(bucket.output, "dtsim: warning:") == 1);
    CHECK_THAT(bucket.output, Catch::Contains("key 'training.strategy.bucket'") && Catch::Contains("implausibly small bucket"));
    const auto batch = simulate({"model.batch_per_gpu=4096"});
    CHECK(batch.exit_code == 0);
    CHECK(test::occurrences(batch.output, "dtsim: warning:") == 1);
    CHECK_THAT(batch.output, Catch::Contains("key 'model.batch_per_gpu'") && Catch::Contains("does not fit"));
    CHECK(test::occurrences(simulate({}).output, "warning") == 0);
    CHECK(test::occurrences(simulate({"training.strategy.bucket=25"}, "--quiet").output, "warning") == 0);
}

TEST_CASE("dtsim model show prints a zoo model's or a config.json's layers, parameters and FLOPs", "[integration][cli][zoo]") {
    const auto zoo = test::run_dtsim({"model", "show", "llama2-7b"});
    REQUIRE(zoo.exit_code == 0);
    CHECK_THAT(zoo.output, Catch::Contains("parameters: 6.74 G (6,738,415,616)") && Catch::Contains("block[0-31].attn") &&
                               Catch::Contains("lm_head"));
    test::TempDir dir;
    std::ofstream(dir.file("config.json")) << R"({"model_type": "gpt2", "n_embd": 768, "n_head": 12, "n_inner": null,
        "n_layer": 12, "n_positions": 1024, "vocab_size": 50257})";
    const auto file = test::run_dtsim({"model", "show", dir.file("config.json")});
    REQUIRE(file.exit_code == 0);
    CHECK_THAT(file.output, Catch::Contains("(124,439,808)") && Catch::Contains("block[0-11].mlp"));
    const auto unknown = test::run_dtsim({"model", "show", "llama2-7"});
    CHECK(unknown.exit_code == 2);
    CHECK_THAT(unknown.output, Catch::Contains("unknown zoo model 'llama2-7'"));
}

}  // namespace new_user_cli_test
