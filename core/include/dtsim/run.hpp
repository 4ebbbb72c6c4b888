#pragma once
// A run is one execution of a scenario, measured or predicted: its summary, iterations and timeline.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dtsim {

enum class RunKind { predicted, measured };
enum class Lane { compute, comm, wait };

std::string to_string(RunKind kind);
std::string to_string(Lane lane);
RunKind run_kind_from_string(const std::string& text);
Lane lane_from_string(const std::string& text);

/// One span on a rank's timeline. Ranks 0..gpus-1 are GPUs; parameter servers follow them.
struct Span {
    int rank = 0;
    Lane lane = Lane::compute;
    std::string name;  // "forward", "backward", "allreduce", "push", "aggregate", ...; with an LLM layout
                       // communication names start with its dimension: "tp allreduce", "pp send", "dp allgather"
    int iteration = 0;
    int index = 0;     // layer or bucket index; the microbatch of a pipeline's passes
    double start_s = 0;
    double end_s = 0;
    double bytes = 0;
    bool operator==(const Span&) const = default;
};

struct IterationRecord {
    int index = 0;
    double time_s = 0;
    bool operator==(const IterationRecord&) const = default;
};

struct RunSummary {
    int gpus = 0;
    int nodes = 0;
    int gpus_per_node = 0;
    int batch_per_gpu = 0;
    double iteration_time_s = 0;          // mean over the iterations after the first
    int uncertainty_draws = 0;            // simulate --uncertainty N: draws of the profile's costs (0: none)
    double iteration_time_low_s = 0;      // and the 5th and 95th percentiles of the iteration time over them
    double iteration_time_high_s = 0;
    double samples_per_s = 0;
    double single_gpu_iteration_time_s = 0;
    double speedup = 0;                    // throughput against one GPU
    double scaling_efficiency = 0;         // speedup / gpus
    double compute_time_s = 0;             // per rank and iteration, mean
    double comm_time_s = 0;                // time a rank's communication is in flight, per iteration, mean
    double exposed_comm_time_s = 0;        // iteration time not covered by compute, mean
    double comm_share = 0;                 // comm_time / iteration_time
    double wait_time_s = 0;                // blocked on others (slowest worker, a server, the SSP bound), mean
    double wait_share = 0;                 // wait_time / iteration_time
    double gradient_bytes = 0;
    double worker_samples_per_s_min = 0;   // each worker's own rate: the slowest and the fastest
    double worker_samples_per_s_max = 0;
    double staleness_mean = 0;             // parameter server, async/ssp: version gap between the parameters a
    double staleness_p50 = 0;              // gradient was computed on and those it is applied to (0 for sync)
    double staleness_p99 = 0;
    double staleness_max = 0;
    double staleness_clocks_mean = 0;      // the same in clocks (iterations): how many of the last clocks' updates
    double staleness_clocks_max = 0;       // the parameters may have missed; at most s under SSP(s), 0 for sync
    double server_link_utilisation = 0;    // parameter server: busiest direction of a server's NIC, mean over servers
    double lost_work_s = 0;                // node failure: work done since the recovery point and lost, per worker
    double restart_s = 0;                  // node failure: time to restart or re-form
    double checkpoint_s = 0;               // time spent writing checkpoints over the run, per worker
    // Large-model training (docs/llm.md, "Outputs"); FLOPs as the Megatron papers count them.
    double tokens_per_s = 0;
    double model_flops_utilisation = 0;    // MFU: model FLOPs per second / (GPUs × peak)
    double hardware_flops_utilisation = 0;  // HFU: with the recomputed FLOPs too
    double tflops_per_gpu = 0;             // model TFLOP/s achieved per GPU
    double bubble_fraction = 0;            // pipeline: share of the iteration a stage waits for its neighbours, mean
    double exposed_tp_s = 0;               // per iteration and rank, mean: time of each dimension's communication
    double exposed_cp_s = 0;               // not hidden behind compute
    double exposed_pp_s = 0;
    double exposed_dp_s = 0;               // data-parallel gradients and ZeRO/FSDP gathers
    double exposed_ep_s = 0;
    double memory_per_gpu_bytes = 0;       // peak over the GPUs
    double memory_capacity_bytes = 0;      // the GPU preset's
    bool fits = true;                      // memory_per_gpu_bytes <= memory_capacity_bytes
    /// Runs stored before the memory model have none (capacity 0).
    bool has_memory_estimate() const { return memory_capacity_bytes > 0; }
    bool operator==(const RunSummary&) const = default;
};

/// Where a rank lives: its node, for grouping timelines (Chrome trace processes, GUI lane groups).
struct RankInfo {
    int rank = 0;
    int node = 0;
    std::string label;  // "gpu 3" or "server 0"
    bool operator==(const RankInfo&) const = default;
};

struct Run {
    std::int64_t id = 0;  // assigned by the runs database
    RunKind kind = RunKind::predicted;
    std::string scenario_name;
    std::string scenario_hash;
    std::string scenario_text;
    std::string strategy;  // "allreduce/ring", "parameter-server/sync x4 dedicated"
    std::string created_at;  // ISO-8601, set when stored
    std::map<std::string, std::string> overrides;  // the scenario's --set keys and values: what tells runs apart
    std::string label;                             // --label: the user's own name for the run
    RunSummary summary;
    std::vector<IterationRecord> iterations;
    std::vector<RankInfo> ranks;
    std::vector<Span> spans;
    bool operator==(const Run&) const = default;
};

}  // namespace dtsim
