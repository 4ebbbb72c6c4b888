#pragma once
// Small runs with closed-form timelines, and a runs database holding them, for the GUI tests.
#include <string>

#include "dtsim/run.hpp"

namespace dtsim::gui::test {

/// Time unit of the synthetic runs: 2^-10 s, so that every span time is exact in float and double.
constexpr double kUnit = 1.0 / 1024;
constexpr int kIterations = 3;
constexpr double kBucketBytes = 25e6;

/// Per rank and iteration (16 units long): forward [0,4), backward [4,10) (compute), allreduce [8,14)
/// (comm, bucket 0), and on odd ranks wait [14,16).
Run synthetic_run(int nodes, int gpus_per_node, RunKind kind, double slowdown = 1.0);

/// Two nodes of 4 GPUs as tensor 2 × pipeline 2 × data 2 with the pipeline innermost (order
/// pp-tp-cp-ep-dp): even ranks are stage 0, odd ranks stage 1, so stages cut across nodes.
extern const char* const kLlmScenarioText;

/// A hand-made 1F1B-like timeline of that layout, 32 units long, per rank of stage s: forward of
/// microbatch i at [2s + 2i, +2) with a `tp allreduce` in its second unit; backward of microbatch i at
/// [12 + 4i, +4); stage 0 a `pp send` at [2i + 2, +0.5) and stage 1 a `pipeline bubble` wait at [0, 2);
/// stage 0 a `pipeline bubble` at [10, 12); every rank a `dp allreduce` at [28, 32).
Run llm_run();

/// A database with: 1 predicted 2x2, 2 measured 2x2 (same scenario), 3 and 4 predicted 1x2 and 4x2 (the
/// same scaling series as 1), 5 a predicted 2x2 run with another strategy.
void write_test_database(const std::string& path);

}  // namespace dtsim::gui::test
