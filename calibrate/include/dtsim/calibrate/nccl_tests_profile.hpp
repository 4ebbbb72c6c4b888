#pragma once
// A profile from nccl-tests logs (nccl_tests_log.hpp): `dtsim fit all_reduce_perf.log ... --out PROFILE.json`.
#include <string>
#include <vector>

#include "dtsim/calibrate/nccl_tests_log.hpp"
#include "dtsim/profile.hpp"

namespace dtsim::calibrate {

/// The ring steps a simulated ring all-reduce would need to take each all-reduce's measured time: for an
/// all-reduce of S bytes over n ranks of one link class in t, a step of S/n bytes in t / (2(n − 1)), the
/// ring's 2(n − 1) steps (nccl-tests' bus bandwidth is this step's rate, doc/PERFORMANCE.md). Only for the
/// link classes (intra_node, inter_node) that `samples` has no sendrecv of: a sendrecv_perf log times the
/// steps themselves. Mixed groups give none, since their time is the slowest hop's.
std::vector<Sample> ring_steps_from_allreduces(const std::vector<Sample>& samples);

/// Reads the logs and fits their samples and the derived ring steps as `dtsim fit` fits a calibration's.
/// The profile's environment says it came from nccl-tests and names the files (their names, not paths),
/// each run's program, ranks and hosts, and the GPU where every run had the same one.
Profile fit_nccl_tests_logs(const std::vector<std::string>& paths, const std::string& name);

}  // namespace dtsim::calibrate
