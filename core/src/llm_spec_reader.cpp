#include "llm_spec_reader.hpp"

#include <algorithm>
#include <sstream>

namespace dtsim {
namespace {

constexpr int kMaxDegree = 1 << 20;

bool has_any(const ConfigNode& node, const auto& keys) {
    return std::any_of(std::begin(keys), std::end(keys), [&](std::string_view key) { return node.has(key); });
}

std::array<Dimension, kDimensions> read_order(const ConfigNode& node) {
    const std::string text = node.text("order");
    const std::string expected = "expected the five dimensions tp, cp, ep, dp and pp, innermost first, such as tp-cp-ep-dp-pp";
    std::array<Dimension, kDimensions> order{};
    std::stringstream in(text);
    std::string name;
    int count = 0;
    while (std::getline(in, name, '-')) {
        const auto dimension = kDimensionNames.parse(name);
        if (!dimension || count == kDimensions || std::find(order.begin(), order.begin() + count, *dimension) != order.begin() + count)
            node.fail("order", expected + ", got '" + text + "'");
        order[static_cast<size_t>(count++)] = *dimension;
    }
    if (count != kDimensions) node.fail("order", expected + ", got '" + text + "'");
    // The data-parallel group (cp, ep, dp) must be one run of the order, so that it is one progression of ranks.
    std::array<int, kDimensions> at{};
    for (int i = 0; i < kDimensions; ++i) at[static_cast<size_t>(order[static_cast<size_t>(i)])] = i;
    const auto position = [&](Dimension d) { return at[static_cast<size_t>(d)]; };
    const int low = std::min({position(Dimension::cp), position(Dimension::ep), position(Dimension::dp)});
    const int high = std::max({position(Dimension::cp), position(Dimension::ep), position(Dimension::dp)});
    if (high - low != 2) node.fail("order", "must keep cp, ep and dp next to each other (they form the gradients' data-parallel group), got '" + text + "'");
    return order;
}

ParallelismSpec read_parallelism(const ConfigNode& training, int gpus) {
    ParallelismSpec p;
    if (!training.has("parallelism")) {
        p.data = gpus;
        return p;
    }
    const auto node = training.child("parallelism");
    node.require_map_with_keys({"tensor", "pipeline", "data", "expert", "context", "sequence_parallel", "order"});
    auto degree = [&](std::string_view key) { return node.has(key) ? static_cast<int>(node.integer(key, 1, kMaxDegree)) : 1; };
    p.tensor = degree("tensor");
    p.pipeline = degree("pipeline");
    p.expert = degree("expert");
    p.context = degree("context");
    if (node.has("sequence_parallel")) p.sequence_parallel = node.boolean("sequence_parallel");
    if (node.has("order")) p.order = read_order(node);
    const long long model_parallel = 1LL * p.tensor * p.pipeline * p.context;
    const std::string product = "tensor × pipeline × context = " + std::to_string(model_parallel);
    if (gpus % model_parallel != 0)
        node.fail(node.has("tensor") ? "tensor" : "pipeline", product + " does not divide the cluster's " + std::to_string(gpus) + " GPUs");
    p.data = static_cast<int>(gpus / model_parallel);
    if (node.has("data") && !(node.yaml()["data"].IsScalar() && node.yaml()["data"].Scalar() == "auto")) {
        const auto data = node.integer("data", 1, kMaxDegree);
        if (data * model_parallel != gpus)
            node.fail("data", "× " + product + " must equal the cluster's " + std::to_string(gpus) + " GPUs (expected " +
                                  std::to_string(p.data) + ", or auto)");
    }
    if (p.data % p.expert != 0)
        node.fail("expert", "must divide the data-parallel degree (" + std::to_string(p.data) + "): experts are split within the data-parallel group");
    if (p.sequence_parallel && p.tensor == 1) node.fail("sequence_parallel", "needs tensor > 1: it splits the tensor-parallel group's activations");
    if (p.context > 1 && p.expert > 1) node.fail("context", "together with expert > 1 is not supported: choose one of them");
    return p;
}

PipelineSpec read_pipeline(const ConfigNode& training, int& microbatches) {
    PipelineSpec pipeline;
    if (!training.has("pipeline")) return pipeline;
    const auto node = training.child("pipeline");
    node.require_map_with_keys({"schedule", "virtual_stages", "microbatches", "first_stage_layers", "last_stage_layers",
                                "embedding_in_split", "loss_in_split"});
    if (node.has("schedule")) pipeline.schedule = node.choice("schedule", kPipelineScheduleNames);
    if (node.has("virtual_stages")) pipeline.virtual_stages = static_cast<int>(node.integer("virtual_stages", 1, 1024));
    if (pipeline.virtual_stages > 1 && pipeline.schedule != PipelineSchedule::interleaved)
        node.fail("virtual_stages", "needs schedule: interleaved-1f1b (model chunks per stage interleave only there)");
    if (node.has("microbatches")) microbatches = static_cast<int>(node.integer("microbatches", 1, 1 << 20));
    if (node.has("first_stage_layers")) pipeline.first_stage_layers = static_cast<int>(node.integer("first_stage_layers", 1, 1 << 20));
    if (node.has("last_stage_layers")) pipeline.last_stage_layers = static_cast<int>(node.integer("last_stage_layers", 1, 1 << 20));
    if (node.has("embedding_in_split")) pipeline.embedding_in_split = node.boolean("embedding_in_split");
    if (node.has("loss_in_split")) pipeline.loss_in_split = node.boolean("loss_in_split");
    if ((pipeline.embedding_in_split || pipeline.loss_in_split) && (pipeline.first_stage_layers > 0 || pipeline.last_stage_layers > 0))
        node.fail(node.has("embedding_in_split") ? "embedding_in_split" : "loss_in_split",
                  "and first_stage_layers/last_stage_layers both set the stages' layers: choose one");
    return pipeline;
}

// Given first and last stage layers, the other stages share the rest equally.
void check_uneven_stages(const ConfigNode& node, PipelineSpec& pipeline, int stages, int blocks) {
    const auto key = node.has("first_stage_layers") ? "first_stage_layers" : "last_stage_layers";
    if (pipeline.virtual_stages > 1) node.fail(key, "applies without interleaving (virtual_stages: 1)");
    if (stages < 3) node.fail(key, "needs at least 3 pipeline stages: the others share the layers left");
    const int share = blocks / stages;
    if (pipeline.first_stage_layers == 0) pipeline.first_stage_layers = share;
    if (pipeline.last_stage_layers == 0) pipeline.last_stage_layers = share;
    const int rest = blocks - pipeline.first_stage_layers - pipeline.last_stage_layers;
    if (rest <= 0 || rest % (stages - 2) != 0)
        node.fail(key, "leaves " + std::to_string(rest) + " of the model's " + std::to_string(blocks) +
                           " layers, which do not divide equally over the other " + std::to_string(stages - 2) + " stages");
}

// Microbatches per iteration: given, or global_batch / (micro_batch × data), or 1.
int read_microbatches(const ConfigNode& training, const ConfigNode& pipeline_key_owner, int given, int micro_batch, int data) {
    if (!training.has("global_batch")) return given > 0 ? given : 1;
    if (given > 0) pipeline_key_owner.fail("microbatches", "give either pipeline.microbatches or training.global_batch, not both");
    const auto global = training.integer("global_batch", 1, 1LL << 40);
    const long long per_step = 1LL * micro_batch * data;
    if (global % per_step != 0)
        training.fail("global_batch", "must be a multiple of model.micro_batch × data parallelism = " + std::to_string(per_step));
    return static_cast<int>(global / per_step);
}

void read_zero_and_fsdp(const ConfigNode& training, LlmSpec& llm, const StrategySpec& strategy) {
    if (training.has("zero")) {
        llm.zero_stage = static_cast<int>(training.integer("zero", 0, 3));
        if (strategy.kind == StrategyKind::parameter_server)
            training.fail("zero", "shards over the data-parallel group, which a parameter server does not have; use kind: allreduce");
        if (strategy.kind == StrategyKind::fsdp) training.fail("zero", "and strategy kind fsdp both shard the model: choose one");
    }
    const auto strategy_node = training.child("strategy");
    if (strategy.kind == StrategyKind::fsdp) {
        llm.fsdp = true;
        if (strategy_node.has("sharding")) llm.fsdp_sharding = strategy_node.choice("sharding", kFsdpShardingNames);
        llm.zero_stage = llm.fsdp_sharding == FsdpSharding::grad_op ? 2 : 3;
    }
    if (strategy_node.has("prefetch")) {
        if (llm.zero_stage < 3) strategy_node.fail("prefetch", "applies where parameters are sharded: zero: 3 or fsdp (full or hybrid)");
        llm.prefetch = strategy_node.boolean("prefetch");
    }
    if (strategy_node.has("reduce_precision")) {
        llm.reduce_precision = strategy_node.choice("reduce_precision", kPrecisionNames);
        if (llm.reduce_precision == Precision::tf32)
            strategy_node.fail("reduce_precision", "tf32 is a math mode, not a storage format; expected fp32, fp16 or bf16");
    }
}


// Combinations the LLM simulation does not model: refused, never ignored.
void refuse_unsupported(const ConfigNode& training, const TrainingSpec& spec) {
    if (spec.compression.kind != CompressionKind::none)
        training.child("compression").fail("kind", "is not supported with an LLM layout (parallelism, pipeline, zero or fsdp); remove one of them");
    if (spec.strategy.backup_workers > 0)
        training.child("strategy").fail("backup_workers", "is not supported with an LLM layout");
    if (spec.stragglers.node_failure.any())
        training.child("stragglers").fail("node_failure", "is not supported with an LLM layout; stragglers' slowdowns and jitter are");
    if (spec.strategy.algorithm == AllReduceAlgorithm::hierarchical)
        training.child("strategy").fail("algorithm", "hierarchical is not supported with an LLM layout: its groups are the layout's");
}

}  // namespace

void read_llm(const ConfigNode& doc, Scenario& scenario) {
    const auto training = doc.child("training");
    const auto model = doc.child("model");
    auto& spec = scenario.training;
    const bool wanted = has_any(training, kLlmTrainingKeys) || has_any(model, kLlmModelKeys) || spec.strategy.kind == StrategyKind::fsdp;
    if (!wanted) {
        for (const auto* key : {"prefetch", "reduce_precision"})
            if (training.has("strategy") && training.child("strategy").has(key))
                training.child("strategy").fail(key, "applies to a large-model layout (training.parallelism, pipeline, zero, fsdp, ...: docs/llm.md)");
        return;
    }
    if (spec.strategy.kind == StrategyKind::parameter_server && training.has("parallelism"))
        training.child("strategy").fail("kind", "parameter-server cannot be combined with training.parallelism; use allreduce or fsdp");
    if (!scenario.model.zoo || !scenario.model.zoo->transformer)
        model.fail(scenario.model.zoo ? "zoo" : "", "an LLM layout needs a transformer from the zoo (gpt3-*, llama*, mixtral-8x7b)" +
                                                       std::string(scenario.model.zoo ? ", not '" + scenario.model.name + "'" : ""));
    const auto& config = *scenario.model.zoo->transformer;
    LlmSpec llm;
    llm.parallelism = read_parallelism(training, scenario.cluster.gpus());
    const auto& p = llm.parallelism;
    const auto parallelism = training.has("parallelism") ? training.child("parallelism") : training;
    if (config.heads % p.tensor != 0)
        parallelism.fail("tensor", "must divide the model's " + std::to_string(config.heads) + " attention heads");
    if (config.kv_heads % p.tensor != 0)
        parallelism.fail("tensor", "must divide the model's " + std::to_string(config.kv_heads) + " key/value heads");
    if (config.experts % p.expert != 0)
        parallelism.fail("expert", "must divide the model's " + std::to_string(config.experts) + " experts");
    int microbatches = 0;
    llm.pipeline = read_pipeline(training, microbatches);
    if (llm.pipeline.first_stage_layers > 0 || llm.pipeline.last_stage_layers > 0) {
        check_uneven_stages(training.child("pipeline"), llm.pipeline, p.pipeline, config.layers);
    } else if (const int parts = p.pipeline * llm.pipeline.virtual_stages,
               extra = llm.pipeline.counted_slots();
               (config.layers + extra) % parts != 0) {
        const bool chunks = llm.pipeline.virtual_stages > 1;
        const std::string counted = extra == 0 ? "" : " + " + std::to_string(extra) + " (the embeddings or loss counted as layers)";
        const std::string hint = extra == 0 && (config.layers + 2) % parts == 0
                                     ? "; the layers + 2 do: count the embeddings and the loss as layers (training.pipeline: "
                                       "{embedding_in_split: true, loss_in_split: true})"
                                     : "";
        (chunks ? training.child("pipeline") : parallelism)
            .fail(chunks ? "virtual_stages" : "pipeline", "the model's " + std::to_string(config.layers) + counted +
                                                              " layers do not divide into pipeline × virtual_stages = " +
                                                              std::to_string(parts) + " equal parts" + hint);
    }
    llm.sequence_length = config.sequence_length;
    if (model.has("sequence_length")) llm.sequence_length = static_cast<int>(model.integer("sequence_length", 1, 1 << 24));
    if (llm.sequence_length % p.context != 0) parallelism.fail("context", "must divide the sequence length (" + std::to_string(llm.sequence_length) + ")");
    if (p.sequence_parallel && llm.sequence_length / p.context % p.tensor != 0)
        parallelism.fail("sequence_parallel", "needs the sequence length per context rank to divide into tensor = " + std::to_string(p.tensor) + " parts");
    if (model.has("micro_batch")) {
        if (model.has("batch_per_gpu")) model.fail("micro_batch", "give either micro_batch or batch_per_gpu, not both");
        scenario.model.batch_per_gpu = static_cast<int>(model.integer("micro_batch", 1, 1 << 20));
    }
    if (training.has("accumulation_steps") && (microbatches > 0 || training.has("global_batch")))
        training.fail("accumulation_steps", "with an LLM layout give pipeline.microbatches or global_batch instead");
    if (training.has("accumulation_steps")) microbatches = spec.accumulation_steps;
    const auto pipeline_node = training.has("pipeline") ? training.child("pipeline") : training;
    spec.accumulation_steps = read_microbatches(training, pipeline_node, microbatches, scenario.model.batch_per_gpu, p.data);
    const int m = spec.accumulation_steps;
    if (llm.pipeline.schedule != PipelineSchedule::gpipe && p.pipeline > 1 && m < p.pipeline)
        pipeline_node.fail(training.has("global_batch") ? "global_batch" : "microbatches",
                           "gives " + std::to_string(m) + " microbatches, fewer than the " + std::to_string(p.pipeline) +
                               " pipeline stages that 1F1B needs to fill the pipeline");
    if (llm.pipeline.schedule == PipelineSchedule::interleaved && m % p.pipeline != 0)
        pipeline_node.fail(training.has("global_batch") ? "global_batch" : "microbatches",
                           "gives " + std::to_string(m) + " microbatches; interleaved-1f1b needs a multiple of the " +
                               std::to_string(p.pipeline) + " pipeline stages");
    read_zero_and_fsdp(training, llm, spec.strategy);
    if (training.has("recompute")) llm.recompute = training.choice("recompute", kRecomputeNames);
    if (training.has("expert_imbalance")) {
        llm.expert_imbalance = training.number("expert_imbalance", 0, 1);
        if (!config.moe()) training.fail("expert_imbalance", "applies to mixture-of-experts models only");
    }
    if (scenario.model.recompute_fraction > 0) model.fail("activation_checkpointing", "with an LLM layout use training.recompute: selective or full");
    refuse_unsupported(training, spec);
    spec.llm = llm;
}

}  // namespace dtsim
