#pragma once
// The output of NVIDIA's nccl-tests (all_reduce_perf, all_gather_perf, ...; https://github.com/NVIDIA/nccl-tests)
// read as calibration samples, so that a cluster owner who already ran nccl-tests gets a profile without
// dtsim-runtime (docs/calibration.md, "nccl-tests logs"). A log holds one or more runs, each a header (the
// options line `# nThread ...`, one `#  Rank N Group G Pid P on HOST device D [BUS] NAME` line per rank), a
// column header and one row per size with an out-of-place and an in-place time, algbw and busbw.
// nccl-tests' size, time and bandwidth semantics are the calibration's (hardware-sources.md §5), so each row
// becomes two samples (out-of-place, in-place) as `dtsim-runtime calibrate --backend nccl` writes them.
#include <string>
#include <vector>

#include "dtsim/calibrate/samples.hpp"

namespace dtsim::calibrate {

/// The nccl-tests programs dtsim reads, by the collective they time.
inline constexpr auto kNcclTestsPrograms = make_name_table(
    std::pair{NetworkOp::allreduce, "all_reduce_perf"}, std::pair{NetworkOp::allgather, "all_gather_perf"},
    std::pair{NetworkOp::reducescatter, "reduce_scatter_perf"}, std::pair{NetworkOp::alltoall, "alltoall_perf"},
    std::pair{NetworkOp::broadcast, "broadcast_perf"}, std::pair{NetworkOp::sendrecv, "sendrecv_perf"});

/// One run of one nccl-tests program: the rank layout its header gave and a sample per row and placement.
struct NcclTestsRun {
    NetworkOp op = NetworkOp::allreduce;
    int ranks = 0;                   // in one communicator (nccl-tests' group)
    std::vector<std::string> hosts;  // the hosts of those ranks, distinct, in rank order
    std::string device;              // the GPUs' name where all of them have the same one, else empty
    int first_line = 0;              // where the run's header starts
    std::vector<Sample> samples;
};

/// The runs of one log. `file_label` names the file in messages and sample keys. The program comes from the
/// header's `# Collective test starting: NAME` line, else from the file's name (all_reduce_perf.log). Every
/// malformed header or row, a row reporting wrong elements, a busbw that is not algbw times the collective's
/// factor for the header's rank count, and a log without rows are InputErrors naming the file and line.
std::vector<NcclTestsRun> parse_nccl_tests_log(const std::string& text, const std::string& file_label);
std::vector<NcclTestsRun> read_nccl_tests_log(const std::string& path);

}  // namespace dtsim::calibrate
