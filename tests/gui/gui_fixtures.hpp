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

/// A database with: 1 predicted 2x2, 2 measured 2x2 (same scenario), 3 and 4 predicted 1x2 and 4x2 (the
/// same scaling series as 1), 5 a predicted 2x2 run with another strategy.
void write_test_database(const std::string& path);

}  // namespace dtsim::gui::test
