#pragma once
// What tells stored runs apart, for `dtsim runs`: their --set overrides as text, and `--where KEY=VALUE`,
// the runs whose scenario had a key at a value, set with --set or written in the scenario file (`label`
// is the run's --label).
#include <map>
#include <string>

#include "dtsim/run_store.hpp"

namespace dtsim::cli {

struct RunCondition {
    std::string key;  // dotted scenario key, or "label"
    std::string value;
};

/// Parses "key=value"; InputError naming the option otherwise.
RunCondition parse_run_condition(const std::string& text);

/// "cluster.nodes=8, cluster.nic=ib-ndr"; empty when the run had none.
std::string overrides_text(const std::map<std::string, std::string>& overrides);

bool matches(const RunListEntry& run, const RunCondition& condition);

}  // namespace dtsim::cli
