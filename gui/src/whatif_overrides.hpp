#pragma once
// The what-if panel's knobs as `dtsim simulate --set` overrides (and `dtsim sweep --vary` values). Only
// the knobs a user turned on become overrides; everything else stays as the scenario file says. Qt-free.
#include <optional>
#include <string>
#include <vector>

#include "llm_overrides.hpp"
#include "section_overrides.hpp"

namespace dtsim::gui {

struct WhatIfKnobs {
    std::optional<int> nodes;
    std::optional<int> gpus_per_node;
    std::optional<std::string> gpu;            // a GPU preset
    NicKnobs nic;
    std::optional<std::string> model;          // a zoo model
    std::optional<std::string> profile;        // a shipped profile's name or a file; empty: no profile
    std::optional<std::string> strategy;       // "allreduce/ring", ..., "parameter-server", "fsdp"
    std::optional<int> servers;
    std::optional<std::string> sync;           // sync | async | ssp
    std::optional<bool> local_aggregation;     // a parameter server's GPUs behind one NIC push one copy
    std::optional<std::string> compression;    // none | fp16 | int8 | topk | powersgd
    std::optional<double> straggler_factor;    // rank 0 runs this many times slower
    std::optional<std::string> bucket;         // "25MB"
    std::vector<int> sweep_nodes;              // non-empty: a sweep over cluster.nodes
    LlmKnobs llm;
};

/// `scenario_file` is read to see how it writes the NIC and the model (section_overrides.hpp).
std::vector<std::string> whatif_overrides(const WhatIfKnobs& knobs, const std::string& scenario_file);

/// The command-line arguments of the dtsim child process that runs the what-if into `db_path`.
std::vector<std::string> whatif_arguments(const WhatIfKnobs& knobs, const std::string& scenario_file, const std::string& db_path);

}  // namespace dtsim::gui
