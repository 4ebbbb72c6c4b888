#include "dtsim/plan_space.hpp"

#include <sstream>

#include "dtsim/input_error.hpp"

namespace dtsim {
namespace {

std::vector<int> divisors(long long n) {
    std::vector<int> out;
    for (long long d = 1; d <= n; ++d)
        if (n % d == 0) out.push_back(static_cast<int>(d));
    return out;
}

class Restrictions {
public:
    explicit Restrictions(const std::map<PlanKey, std::vector<std::string>>& allowed) : allowed_(allowed) {}
    bool allows(PlanKey key, const std::string& value) const {
        const auto it = allowed_.find(key);
        if (it == allowed_.end()) return true;
        for (const auto& v : it->second)
            if (v == value) return true;
        return false;
    }
    bool allows(PlanKey key, int value) const { return allows(key, std::to_string(value)); }
    bool restricts(PlanKey key) const { return allowed_.count(key) > 0; }

private:
    const std::map<PlanKey, std::vector<std::string>>& allowed_;
};

// (schedule, virtual stages) for `stages` pipeline stages of `layers` layers: none to choose without a
// pipeline; otherwise GPipe, 1F1B, and interleaved 1F1B with every chunk count above 1 that divides a
// stage's layers.
std::vector<std::pair<PipelineSchedule, int>> schedules(int stages, int layers, const Restrictions& r) {
    std::vector<std::pair<PipelineSchedule, int>> out;
    const auto allowed = [&](PipelineSchedule s, int v) {
        return r.allows(PlanKey::schedule, std::string(kPipelineScheduleNames.name(s))) && r.allows(PlanKey::virtual_stages, v);
    };
    if (stages == 1) {
        if (allowed(PipelineSchedule::one_f_one_b, 1)) out.emplace_back(PipelineSchedule::one_f_one_b, 1);
        return out;
    }
    for (auto s : {PipelineSchedule::gpipe, PipelineSchedule::one_f_one_b})
        if (allowed(s, 1)) out.emplace_back(s, 1);
    for (int v : divisors(layers / stages))
        if (v > 1 && allowed(PipelineSchedule::interleaved, v)) out.emplace_back(PipelineSchedule::interleaved, v);
    return out;
}

struct ShardingChoice {
    int zero_stage = 0;
    std::optional<FsdpSharding> fsdp;
};

// The shardings of a layout whose data group (context included) has `data_ranks` ranks and whose tensor
// groups have `tensor` GPUs of a node's `gpus_per_node`: ZeRO's stages, then FSDP's (see plan_space).
std::vector<ShardingChoice> shardings(int data_ranks, int tensor, int gpus_per_node, const Restrictions& r) {
    std::vector<ShardingChoice> out;
    if (!r.restricts(PlanKey::fsdp) || r.allows(PlanKey::fsdp, std::string(kNoFsdp)))
        for (int zero = 0; zero <= 3; ++zero)
            if (r.allows(PlanKey::zero, zero)) out.push_back({zero, std::nullopt});
    const int node_shard = gpus_per_node / tensor;
    for (const auto& [fsdp, name] : kFsdpShardingNames.entries) {
        const int zero = fsdp == FsdpSharding::grad_op ? 2 : 3;
        if (!r.allows(PlanKey::zero, zero)) continue;
        const bool named = r.restricts(PlanKey::fsdp) && r.allows(PlanKey::fsdp, std::string(name));
        const bool distinct_hybrid = fsdp == FsdpSharding::hybrid && node_shard > 1 && node_shard < data_ranks;
        if (named || (!r.restricts(PlanKey::fsdp) && distinct_hybrid)) out.push_back({zero, fsdp});
    }
    return out;
}

bool is_integer_key(PlanKey key) { return key != PlanKey::schedule && key != PlanKey::fsdp && key != PlanKey::recompute; }

}  // namespace

std::vector<PlanConfig> plan_space(const PlanSpaceInput& in) {
    const Restrictions r(in.allowed);
    std::vector<PlanConfig> out;
    for (int t : divisors(in.gpus_per_node)) {
        if (in.gpus % t != 0 || !r.allows(PlanKey::tensor, t)) continue;
        for (int p : divisors(in.gpus / t)) {
            // The embeddings and the loss count as layers where the layers alone do not divide (Megatron-LM's
            // account_for_embedding/loss_in_pipeline_split), if every stage keeps a layer.
            const bool counted = in.layers % p != 0 && (in.layers + 2) % p == 0 && (in.layers + 2) / p >= 2;
            if ((in.layers % p != 0 && !counted) || !r.allows(PlanKey::pipeline, p)) continue;
            const int slots = in.layers + (counted ? 2 : 0);
            for (int c : divisors(in.gpus / t / p)) {
                if (c > in.max_context || !r.allows(PlanKey::context, c)) continue;
                const int d = in.gpus / t / p / c;
                for (int e : divisors(d)) {
                    if (in.experts % e != 0 || !r.allows(PlanKey::expert, e)) continue;
                    if (in.global_batch % d != 0) continue;
                    const auto sharding_choices = shardings(d * c, t, in.gpus_per_node, r);
                    for (const auto& [schedule, v] : schedules(p, slots, r))
                        for (int b : divisors(in.global_batch / d)) {
                            if (!r.allows(PlanKey::micro_batch, b)) continue;
                            for (const auto& sharding : sharding_choices) {
                                for (auto recompute : {Recompute::none, Recompute::selective, Recompute::full}) {
                                    if (!r.allows(PlanKey::recompute, std::string(kRecomputeNames.name(recompute)))) continue;
                                    PlanConfig config;
                                    config.parallelism.tensor = t;
                                    config.parallelism.pipeline = p;
                                    config.parallelism.context = c;
                                    config.parallelism.expert = e;
                                    config.parallelism.data = d;
                                    config.parallelism.sequence_parallel = t > 1;
                                    config.schedule = schedule;
                                    config.virtual_stages = v;
                                    config.embedding_and_loss_in_split = counted;
                                    config.micro_batch = b;
                                    config.microbatches = static_cast<int>(in.global_batch / d / b);
                                    config.zero_stage = sharding.zero_stage;
                                    config.fsdp = sharding.fsdp;
                                    config.recompute = recompute;
                                    out.push_back(config);
                                }
                            }
                        }
                }
            }
        }
    }
    return out;
}

std::pair<PlanKey, std::vector<std::string>> parse_search_option(const std::string& text) {
    const std::string where = "command line: --search '" + text + "': ";
    const auto equals = text.find('=');
    const auto key = kPlanKeyNames.parse(text.substr(0, equals));
    if (equals == std::string::npos || !key)
        throw InputError(where + "expected KEY=V1,V2,... with KEY one of " + kPlanKeyNames.choices());
    std::vector<std::string> values;
    std::stringstream in(text.substr(equals + 1));
    for (std::string value; std::getline(in, value, ',');) {
        const bool valid = *key == PlanKey::schedule    ? kPipelineScheduleNames.parse(value).has_value()
                           : *key == PlanKey::recompute ? kRecomputeNames.parse(value).has_value()
                           : *key == PlanKey::fsdp      ? value == kNoFsdp || kFsdpShardingNames.parse(value).has_value()
                                                        : !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
        if (!valid)
            throw InputError(where + "'" + value + "' is not a value of " + std::string(kPlanKeyNames.name(*key)) + " (expected " +
                             (*key == PlanKey::schedule    ? kPipelineScheduleNames.choices()
                              : *key == PlanKey::recompute ? kRecomputeNames.choices()
                              : *key == PlanKey::fsdp      ? std::string(kNoFsdp) + " | " + kFsdpShardingNames.choices()
                                                           : std::string("a positive integer")) + ")");
        values.push_back(is_integer_key(*key) ? std::to_string(std::stoll(value)) : value);
    }
    if (values.empty()) throw InputError(where + "expected at least one value after '='");
    return {*key, values};
}

std::vector<std::string> plan_overrides(const PlanConfig& c, long long global_batch, const std::string& micro_batch_key) {
    const auto& p = c.parallelism;
    std::string parallelism = "training.parallelism={tensor: " + std::to_string(p.tensor) + ", pipeline: " + std::to_string(p.pipeline) +
                              ", context: " + std::to_string(p.context) + ", expert: " + std::to_string(p.expert) + ", data: auto" +
                              (p.sequence_parallel ? ", sequence_parallel: true" : "") + "}";
    std::string pipeline = "training.pipeline={schedule: " + std::string(kPipelineScheduleNames.name(c.schedule)) +
                           (c.virtual_stages > 1 ? ", virtual_stages: " + std::to_string(c.virtual_stages) : "") +
                           (c.embedding_and_loss_in_split ? ", embedding_in_split: true, loss_in_split: true" : "") + "}";
    std::vector<std::string> out{parallelism, pipeline, "training.global_batch=" + std::to_string(global_batch),
                                 micro_batch_key + "=" + std::to_string(c.micro_batch)};
    if (c.fsdp) {  // FSDP replaces ZeRO: the scenario's zero key, if any, goes
        out.insert(out.end(), {"training.zero=null", "training.strategy.kind=fsdp",
                               "training.strategy.sharding=" + std::string(kFsdpShardingNames.name(*c.fsdp))});
    } else {
        out.push_back("training.zero=" + std::to_string(c.zero_stage));
    }
    out.push_back("training.recompute=" + std::string(kRecomputeNames.name(c.recompute)));
    return out;
}

std::string describe_plan(const PlanConfig& c) {
    const auto& p = c.parallelism;
    std::string text;
    const auto add = [&](const std::string& part) { text += (text.empty() ? "" : " ") + part; };
    if (p.tensor > 1) add("tp" + std::to_string(p.tensor) + (p.sequence_parallel ? " sp" : ""));
    if (p.context > 1) add("cp" + std::to_string(p.context));
    if (p.expert > 1) add("ep" + std::to_string(p.expert));
    if (p.pipeline > 1) add("pp" + std::to_string(p.pipeline));
    if (c.embedding_and_loss_in_split) add("emb+loss");
    add("dp" + std::to_string(p.data));
    if (p.pipeline > 1)
        add(std::string(kPipelineScheduleNames.name(c.schedule)) + (c.virtual_stages > 1 ? " v" + std::to_string(c.virtual_stages) : ""));
    add("mb" + std::to_string(c.micro_batch) + "×" + std::to_string(c.microbatches));
    add(c.fsdp ? "fsdp " + std::string(kFsdpShardingNames.name(*c.fsdp)) : "zero" + std::to_string(c.zero_stage));
    add(std::string(kRecomputeNames.name(c.recompute)));
    return text;
}

}  // namespace dtsim
