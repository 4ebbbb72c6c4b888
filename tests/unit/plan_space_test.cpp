// `dtsim plan`'s search space: the configurations of a tiny case counted by hand, restrictions, and the
// overrides and names each configuration gets.
#include <catch2/catch.hpp>

#include <algorithm>

#include "dtsim/input_error.hpp"
#include "dtsim/plan_space.hpp"

namespace plan_space_test {

using namespace dtsim;

namespace {

PlanSpaceInput tiny() {
    PlanSpaceInput in;
    in.gpus = 4;
    in.gpus_per_node = 4;
    in.global_batch = 4;
    in.layers = 2;
    in.allowed[PlanKey::zero] = {"0"};
    in.allowed[PlanKey::recompute] = {"none"};
    return in;
}

}  // namespace

TEST_CASE("plan_space: a tiny case has the configurations counted by hand", "[unit][plan]") {
    // 4 GPUs in one node, 2 layers, global batch 4; micro-batch sizes divide 4 / data: 1, 2 or 3 of them
    // for data 4, 2, 1. Pipelines of 1 or 2 stages (2 layers); with 2 stages, gpipe and 1f1b (one layer
    // per stage leaves no interleaving).
    //   t1 p1: c1 d4 (1), c2 d2 (2), c4 d1 (3)              =  6
    //   t1 p2: (c1 d2 (2) + c2 d1 (3)) × 2 schedules        = 10
    //   t2 p1: c1 d2 (2) + c2 d1 (3)                        =  5
    //   t2 p2: c1 d1 (3) × 2 schedules                      =  6
    //   t4 p1: c1 d1 (3)                                    =  3
    auto in = tiny();
    CHECK(plan_space(in).size() == 30);
    in.allowed.erase(PlanKey::zero);  // ZeRO 0-3; one node: hybrid FSDP would shard as full sharding does, so none
    CHECK(plan_space(in).size() == 120);
    in.allowed.erase(PlanKey::recompute);  // none, selective, full
    CHECK(plan_space(in).size() == 360);
    // Four layers: 2 stages may interleave 2 chunks of one layer (a third schedule), and 4 stages fit:
    // t1 p4 c1 d1 (3) × 3 schedules (gpipe, 1f1b; 1 layer per stage cannot interleave: 2).
    auto four = tiny();
    four.layers = 4;
    //   t1 p2: 5 × 3 = 15 (was 10); t2 p2: 3 × 3 = 9 (was 6); t1 p4: 3 × 2 = 6.
    CHECK(plan_space(four).size() == 30 + 5 + 3 + 6);
}

TEST_CASE("plan_space: a pipeline that does not divide the layers counts the embeddings and loss as layers", "[unit][plan]") {
    // 6 layers on 4 GPUs of one node: 4 stages split 6 + 2 slots, 2 each (the first and last stage one block
    // and the embeddings or the loss); 2 stages split the 6 layers themselves. 3 stages are not a divisor of 4.
    auto in = tiny();
    in.layers = 6;
    in.allowed[PlanKey::tensor] = {"1"};
    bool four_stages = false;
    for (const auto& c : plan_space(in)) {
        CAPTURE(describe_plan(c));
        CHECK(c.embedding_and_loss_in_split == (c.parallelism.pipeline == 4));
        if (c.parallelism.pipeline != 4) continue;
        four_stages = true;
        CHECK(describe_plan(c).find("pp4 emb+loss") != std::string::npos);
        const auto overrides = plan_overrides(c, 4, "model.micro_batch");
        CHECK(overrides.at(1).find("embedding_in_split: true, loss_in_split: true") != std::string::npos);
        // 2 slots per stage: 2 chunks of one slot interleave.
        CHECK((c.schedule != PipelineSchedule::interleaved || c.virtual_stages == 2));
    }
    CHECK(four_stages);
    // 2 layers over 4 stages would leave the first and last stage without a layer: not searched.
    for (const auto& c : plan_space(tiny())) CHECK(c.parallelism.pipeline <= 2);
}

TEST_CASE("plan_space: restrictions and limits keep only what they allow", "[unit][plan]") {
    auto in = tiny();
    in.allowed[PlanKey::tensor] = {"2"};
    in.allowed[PlanKey::micro_batch] = {"1"};
    const auto space = plan_space(in);
    // t2 p1 c1 d2, t2 p1 c2 d1, t2 p2 c1 d1 gpipe and 1f1b.
    REQUIRE(space.size() == 4);
    for (const auto& c : space) {
        CHECK(c.parallelism.tensor == 2);
        CHECK(c.parallelism.sequence_parallel);
        CHECK(c.micro_batch == 1);
        CHECK(c.microbatches * c.parallelism.data == 4);
    }
    in.max_context = 1;
    CHECK(plan_space(in).size() == 3);
    // A MoE of 2 experts on 4 GPUs: expert degree 1 or 2 wherever the data degree allows it.
    auto moe = tiny();
    moe.experts = 2;
    moe.allowed[PlanKey::micro_batch] = {"1"};
    moe.allowed[PlanKey::tensor] = {"1"};
    moe.allowed[PlanKey::pipeline] = {"1"};
    // c1 d4: e1, e2; c2 d2: e1, e2; c4 d1: e1.
    CHECK(plan_space(moe).size() == 5);
}

TEST_CASE("plan_space: FSDP shardings beside ZeRO's, hybrid where it differs from full sharding", "[unit][plan]") {
    // 8 GPUs in 2 nodes of 4, global batch 8, micro-batch 1, no pipeline or context: data 8 / tensor.
    const PlanSpaceInput in{.gpus = 8,
                            .gpus_per_node = 4,
                            .global_batch = 8,
                            .layers = 2,
                            .allowed = {{PlanKey::tensor, {"1"}},
                                        {PlanKey::pipeline, {"1"}},
                                        {PlanKey::context, {"1"}},
                                        {PlanKey::micro_batch, {"1"}},
                                        {PlanKey::recompute, {"none"}}}};
    const auto count_with = [&](std::map<PlanKey, std::vector<std::string>> extra) {
        auto restricted = in;
        for (auto& [key, values] : extra) restricted.allowed[key] = values;
        return plan_space(restricted).size();
    };
    // ZeRO 0-3 and hybrid FSDP (shards of a node's 4 GPUs, 2 replicas); full and grad-op are ZeRO-3 and -2.
    const auto space = plan_space(in);
    REQUIRE(space.size() == 5);
    CHECK(space.back().fsdp == FsdpSharding::hybrid);
    CHECK(space.back().zero_stage == 3);
    CHECK(count_with({{PlanKey::fsdp, {"none", "full", "grad-op", "hybrid"}}}) == 7);  // named, every one
    CHECK(count_with({{PlanKey::fsdp, {"hybrid"}}}) == 1);
    CHECK(count_with({{PlanKey::zero, {"1"}}}) == 1);  // FSDP shardings count as stages 2 and 3
    CHECK(count_with({{PlanKey::zero, {"1", "2"}}, {PlanKey::fsdp, {"none", "grad-op"}}}) == 3);
    // Tensor 1, 2, 4: a node holds 4, 2, 1 ranks of a data group of 8, 4, 2; with one rank per node there is
    // nothing to shard within it, so hybrid only for tensor 1 and 2: 5 + 5 + 4.
    CHECK(count_with({{PlanKey::tensor, {"1", "2", "4"}}}) == 14);
}

TEST_CASE("plan_space: a configuration's overrides and name", "[unit][plan]") {
    PlanConfig c;
    c.parallelism.tensor = 8;
    c.parallelism.sequence_parallel = true;
    c.parallelism.pipeline = 4;
    c.parallelism.data = 16;
    c.schedule = PipelineSchedule::interleaved;
    c.virtual_stages = 2;
    c.micro_batch = 1;
    c.microbatches = 32;
    c.zero_stage = 1;
    c.recompute = Recompute::selective;
    CHECK(describe_plan(c) == "tp8 sp pp4 dp16 interleaved-1f1b v2 mb1×32 zero1 selective");
    const auto o = plan_overrides(c, 512, "model.micro_batch");
    CHECK(o == std::vector<std::string>{
                   "training.parallelism={tensor: 8, pipeline: 4, context: 1, expert: 1, data: auto, sequence_parallel: true}",
                   "training.pipeline={schedule: interleaved-1f1b, virtual_stages: 2}", "training.global_batch=512",
                   "model.micro_batch=1", "training.zero=1", "training.recompute=selective"});
    // FSDP replaces the ZeRO key with the strategy's sharding.
    PlanConfig hybrid;
    hybrid.parallelism.data = 8;
    hybrid.zero_stage = 3;
    hybrid.fsdp = FsdpSharding::hybrid;
    CHECK(describe_plan(hybrid) == "dp8 mb1×1 fsdp hybrid none");
    const auto h = plan_overrides(hybrid, 8, "model.micro_batch");
    CHECK(std::vector<std::string>(h.begin() + 4, h.end()) ==
          std::vector<std::string>{"training.zero=null", "training.strategy.kind=fsdp", "training.strategy.sharding=hybrid",
                                   "training.recompute=none"});
}

TEST_CASE("parse_search_option: keys and values are checked", "[unit][plan]") {
    const auto [key, values] = parse_search_option("zero=1,03");
    CHECK(key == PlanKey::zero);
    CHECK(values == std::vector<std::string>{"1", "3"});
    CHECK(parse_search_option("schedule=1f1b,gpipe").second.size() == 2);
    CHECK_THROWS_WITH(parse_search_option("zeros=1"), Catch::Contains("KEY one of tensor | pipeline"));
    CHECK_THROWS_WITH(parse_search_option("schedule=2f2b"), Catch::Contains("expected gpipe | 1f1b | interleaved-1f1b"));
    CHECK_THROWS_WITH(parse_search_option("tensor=two"), Catch::Contains("a positive integer"));
    CHECK(parse_search_option("fsdp=hybrid,none").second == std::vector<std::string>{"hybrid", "none"});
    CHECK_THROWS_WITH(parse_search_option("fsdp=zero3"), Catch::Contains("expected none | full | grad-op | hybrid"));
    CHECK_THROWS_AS(parse_search_option("tensor="), InputError);
}

TEST_CASE("plan's search keys: each named once and read back", "[unit][plan][vocabulary]") {
    for (const auto& [key, name] : kPlanKeyNames.entries) {
        CAPTURE(name);
        REQUIRE(kPlanKeyNames.parse(name).has_value());
        CHECK(*kPlanKeyNames.parse(name) == key);
    }
    CHECK(kPlanKeyNames.name(PlanKey::recompute) == "recompute");  // the last value
}

}  // namespace plan_space_test
