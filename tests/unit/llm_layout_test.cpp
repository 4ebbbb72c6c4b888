// The LLM layout's pure parts: rank coordinates and groups, each schedule's pass order, the zoo's
// transformer layers rebuilt from their configuration, and the loader's checks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "dtsim/llm_costs.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/parallel_layout.hpp"
#include "dtsim/pipeline_schedule.hpp"
#include "dtsim/scenario.hpp"
#include "test_support.hpp"

namespace llm_layout_test {

using namespace dtsim;

namespace {

std::string llm_scenario(const std::string& training_extra, const std::string& model = "llama2-7b", int nodes = 4,
                         const std::string& model_extra = "") {
    return "name: t\ncluster: {nodes: " + std::to_string(nodes) +
           ", gpus_per_node: 8, gpu: h100-sxm, intra_node: nvlink4, nic: ib-ndr}\n"
           "model: {zoo: " + model + ", micro_batch: 1, precision: bf16" + model_extra + "}\n"
           "training:\n  iterations: 1\n  strategy: {kind: allreduce}\n" + training_extra;
}

// `text` (an llm_scenario) with its strategy's kind replaced by `kind_and_keys`.
std::string with_strategy(std::string text, const std::string& kind_and_keys) {
    const std::string plain = "{kind: allreduce}";
    return text.replace(text.find(plain), plain.size(), "{kind: " + kind_and_keys + "}");
}

// No LLM key: plain data parallelism of a zoo transformer, with `strategy_extra` in its strategy.
std::string plain_data_parallel(const std::string& strategy_extra) {
    return "name: t\ncluster: {nodes: 2, gpus_per_node: 8, gpu: h100-sxm, intra_node: nvlink4, nic: ib-ndr}\n"
           "model: {zoo: gpt3-125m, batch_per_gpu: 1, precision: bf16}\n"
           "training:\n  iterations: 1\n  strategy: {kind: allreduce, " + strategy_extra + "}\n";
}

std::string load_error(const std::string& text) { return test::scenario_load_error(text, "s.yaml"); }

}  // namespace

TEST_CASE("the default order keeps tensor groups on consecutive GPUs and pipeline stages outermost", "[unit][llm]") {
    ParallelismSpec spec;
    spec.tensor = 4;
    spec.pipeline = 2;
    spec.data = 4;
    spec.expert = 2;
    const ParallelLayout layout(spec);
    REQUIRE(layout.gpus() == 32);
    CHECK(layout.coordinate(13, Dimension::tp) == 1);
    CHECK(layout.coordinate(13, Dimension::ep) == 1);
    CHECK(layout.coordinate(13, Dimension::dp) == 1);
    CHECK(layout.coordinate(29, Dimension::pp) == 1);
    const auto tp = layout.group(13, Dimension::tp);
    CHECK((tp.first == 12 && tp.stride == 1 && tp.count == 4 && tp.position == 1));
    const auto data = layout.data_group(13);  // ep and dp together: 4 ranks 4 apart
    CHECK((data.first == 1 && data.stride == 4 && data.count == 4 && data.position == 3));
    const auto experts = layout.group(13, Dimension::dp);  // the same experts: dp only
    CHECK((experts.first == 5 && experts.stride == 8 && experts.count == 2 && experts.position == 1));
    CHECK(layout.at_stage(13, 1) == 29);
    // Every rank is at the coordinates it is built from.
    for (int rank = 0; rank < 32; ++rank) {
        int rebuilt = 0;
        for (Dimension d : spec.order) rebuilt += layout.coordinate(rank, d) * layout.group(0, d).stride;
        CHECK(rebuilt == rank);
    }
}

TEST_CASE("every schedule runs each microbatch's forward before its backward, once per chunk", "[unit][llm]") {
    const auto [schedule, stages, microbatches, chunks] =
        GENERATE(table<PipelineSchedule, int, int, int>({{PipelineSchedule::gpipe, 4, 6, 1},
                                                          {PipelineSchedule::one_f_one_b, 4, 8, 1},
                                                          {PipelineSchedule::one_f_one_b, 4, 4, 1},
                                                          {PipelineSchedule::interleaved, 4, 8, 2},
                                                          {PipelineSchedule::interleaved, 2, 4, 3}}));
    for (int stage = 0; stage < stages; ++stage) {
        const auto order = pipeline_order(schedule, stages, stage, microbatches, chunks);
        REQUIRE(order.size() == static_cast<size_t>(2 * microbatches * chunks));
        for (int m = 0; m < microbatches; ++m)
            for (int c = 0; c < chunks; ++c) {
                const auto f = std::find(order.begin(), order.end(), PipelineOp{Pass::forward, m, c});
                const auto b = std::find(order.begin(), order.end(), PipelineOp{Pass::backward, m, c});
                CAPTURE(stage, m, c);
                CHECK(f < b);
                CHECK(b != order.end());
            }
    }
}

TEST_CASE("1F1B warms up with stages - stage - 1 forwards, then alternates", "[unit][llm]") {
    const auto order = pipeline_order(PipelineSchedule::one_f_one_b, 4, 1, 6, 1);
    const std::vector<PipelineOp> expected{{Pass::forward, 0, 0},  {Pass::forward, 1, 0},  {Pass::forward, 2, 0},
                                           {Pass::backward, 0, 0}, {Pass::forward, 3, 0},  {Pass::backward, 1, 0},
                                           {Pass::forward, 4, 0},  {Pass::backward, 2, 0}, {Pass::forward, 5, 0},
                                           {Pass::backward, 3, 0}, {Pass::backward, 4, 0}, {Pass::backward, 5, 0}};
    CHECK(order == expected);
    // Megatron-LM's interleaved warm-up: (stages - stage - 1)·2 + (chunks - 1)·stages forwards, chunk by
    // chunk in groups of `stages` microbatches.
    const auto interleaved = pipeline_order(PipelineSchedule::interleaved, 2, 0, 4, 2);
    const std::vector<PipelineOp> first{{Pass::forward, 0, 0}, {Pass::forward, 1, 0}, {Pass::forward, 0, 1},
                                        {Pass::forward, 1, 1}, {Pass::forward, 2, 0}, {Pass::backward, 0, 1}};
    CHECK(std::vector<PipelineOp>(interleaved.begin(), interleaved.begin() + 6) == first);
}

TEST_CASE("the zoo's transformer layers are rebuilt exactly from their configuration", "[unit][llm][zoo]") {
    for (const char* name : {"gpt3-175b", "gpt3-13b", "gpt2_xl", "llama2-70b", "llama3-405b", "mixtral-8x7b"}) {
        const auto model = load_zoo_model(name, "test");
        REQUIRE(model.transformer);
        const auto rebuilt = transformer_layers(*model.transformer, model.transformer->sequence_length, Attention::flash);
        REQUIRE(rebuilt.size() == model.layers.size());
        for (size_t i = 0; i < rebuilt.size(); ++i) {
            CAPTURE(name, model.layers[i].name);
            CHECK(rebuilt[i].name == model.layers[i].name);
            CHECK(rebuilt[i].params == model.layers[i].params);
            CHECK(rebuilt[i].forward_flops_per_sample == model.layers[i].forward_flops_per_sample);
            CHECK(rebuilt[i].activations_per_sample == model.layers[i].activations_per_sample);
        }
    }
}

TEST_CASE("an LLM layout resolves data parallelism and microbatches from the global batch", "[unit][llm]") {
    const auto scenario = load_scenario_text(
        llm_scenario("  parallelism: {tensor: 8, pipeline: 2}\n  global_batch: 64\n  zero: 1\n"), "s.yaml");
    REQUIRE(scenario.training.llm);
    CHECK(scenario.training.llm->parallelism.data == 2);
    CHECK(scenario.training.accumulation_steps == 32);
    CHECK(scenario.replicas() == 2);
    CHECK(scenario.global_batch() == 64);
    CHECK(scenario.training.llm->sequence_length == 4096);
}

TEST_CASE("the embeddings and the loss counted as layers take a chunk's place in the pipeline split", "[unit][llm]") {
    // Llama 3 405B: 126 blocks + the embeddings + the loss = 128 slots over 16 stages × 8 chunks, so "the first
    // model chunk on the first stage has only the embedding" (Dubey et al. 2024 §3.3.2).
    PipelineSpec pipeline;
    pipeline.embedding_in_split = pipeline.loss_in_split = true;
    const auto blocks = [&](int chunk, int count) {
        const auto range = stage_blocks(pipeline, 126, chunk, count);
        return std::pair{range.first, range.last};
    };
    CHECK(blocks(0, 128) == std::pair{0, 0});
    CHECK(blocks(1, 128) == std::pair{0, 1});
    CHECK(blocks(126, 128) == std::pair{125, 126});
    CHECK(blocks(127, 128) == std::pair{126, 126});
    // One chunk per stage: the first and last stages get 7 blocks, the others 8, as first_stage_layers: 7 and
    // last_stage_layers: 7 give.
    PipelineSpec explicit_layers;
    explicit_layers.first_stage_layers = explicit_layers.last_stage_layers = 7;
    for (int stage = 0; stage < 16; ++stage) {
        CAPTURE(stage);
        const auto counted = stage_blocks(pipeline, 126, stage, 16), given = stage_blocks(explicit_layers, 126, stage, 16);
        CHECK(counted.first == given.first);
        CHECK(counted.last == given.last);
    }
    CHECK(blocks(1, 16) == std::pair{7, 15});
    // Only the embeddings: 32 + 1 = 33 slots over 3 chunks of 11.
    pipeline.loss_in_split = false;
    CHECK(stage_blocks(pipeline, 32, 0, 3).last == 10);
    CHECK(stage_blocks(pipeline, 32, 2, 3).first == 21);
}

TEST_CASE("inconsistent LLM layouts are refused at their key", "[unit][llm][input]") {
    struct Case {
        std::string text;
        std::string key;
        std::string says;
    };
    const std::vector<Case> cases{
        {llm_scenario("  parallelism: {tensor: 3}\n"), "training.parallelism.tensor", "does not divide"},
        {llm_scenario("  parallelism: {tensor: 8, data: 3}\n"), "training.parallelism.data", "must equal"},
        {llm_scenario("  parallelism: {tensor: 16}\n", "llama2-70b"), "training.parallelism.tensor", "key/value heads"},
        {llm_scenario("  parallelism: {pipeline: 5}\n", "llama2-7b", 5), "training.parallelism.pipeline", "equal parts"},
        {llm_scenario("  parallelism: {pipeline: 4}\n  pipeline: {microbatches: 2}\n"), "training.pipeline.microbatches", "fewer than"},
        {llm_scenario("  parallelism: {pipeline: 2}\n  pipeline: {schedule: 1f1b, virtual_stages: 2}\n"),
         "training.pipeline.virtual_stages", "interleaved-1f1b"},
        {llm_scenario("  parallelism: {expert: 3}\n", "mixtral-8x7b", 3), "training.parallelism.expert", "experts"},
        {llm_scenario("  parallelism: {pipeline: 4}\n  pipeline: {embedding_in_split: true}\n"), "training.parallelism.pipeline",
         "32 + 1 (the embeddings or loss counted as layers)"},
        {llm_scenario("  parallelism: {pipeline: 17}\n", "llama2-7b", 17), "training.parallelism.pipeline",
         "the layers + 2 do: count the embeddings and the loss as layers"},
        {llm_scenario("  parallelism: {pipeline: 4}\n  pipeline: {first_stage_layers: 7, loss_in_split: true}\n"),
         "training.pipeline.loss_in_split", "choose one"},
        {with_strategy(llm_scenario("  zero: 2\n"), "allreduce, reduce_precision: tf32"), "training.strategy.reduce_precision",
         "math mode"},
        {plain_data_parallel("reduce_precision: fp32"), "training.strategy.reduce_precision", "large-model layout"},
        {plain_data_parallel("prefetch: false"), "training.strategy.prefetch", "large-model layout"},
        {llm_scenario("  parallelism: {order: tp-cp-ep-pp-dp}\n"), "training.parallelism.order", "next to each other"},
        {llm_scenario("  zero: 4\n"), "training.zero", ""},
        {llm_scenario("  global_batch: 33\n"), "training.global_batch", "multiple"},
        {llm_scenario("  zero: 1\n", "resnet50"), "model.zoo", "transformer"},
    };
    for (const auto& c : cases) {
        const auto message = load_error(c.text);
        CAPTURE(c.text, message);
        CHECK(message.find("s.yaml:") != std::string::npos);
        CHECK(message.find(c.key) != std::string::npos);
        CHECK(message.find(c.says) != std::string::npos);
    }
    // ZeRO with a parameter server.
    CHECK(load_error(with_strategy(llm_scenario("  zero: 1\n"), "parameter-server")).find("training.zero") != std::string::npos);
}

}  // namespace llm_layout_test
