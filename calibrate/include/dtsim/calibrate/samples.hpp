#pragma once
// Calibration samples: one JSON object per line of DIR/samples.jsonl, appended by `dtsim-runtime
// calibrate` the moment each is taken. This is the contract between the runtime and `dtsim fit`.
//
// Fields every line has:   key (unique per sample; --resume skips keys already present), op, time_s,
//                          ranks, nodes, iteration_times_s (raw per-iteration seconds), backend.
// Network ops (allreduce, allgather, reducescatter, broadcast, alltoall, sendrecv, pingpong) add:
//                          mode (throughput|latency), link_class (intra_node|inter_node|mixed),
//                          bytes (nccl-tests' size semantics), count, dtype, algbw_GBps, busbw_GBps.
// Compute ops add:         device; gemm: dtype, m, n, k, flops; memory_bandwidth: bytes (moved);
//                          launch_latency: nothing more; host_to_device / device_to_host: bytes;
//                          codec: kernel (profile.hpp's codec_kernels()), bytes (the uncompressed fp32
//                          input), ratio (topk kernels), blocks (topk_decode).
#include <optional>
#include <string>
#include <vector>

#include "dtsim/profile.hpp"

namespace dtsim::calibrate {

struct Sample {
    std::string key;
    std::string op;
    std::string mode;      // network ops only
    std::string dtype;     // "float32", "float16", "bfloat16"; empty where it does not apply
    std::string device;    // compute ops only
    std::optional<LinkClass> link_class;  // network ops only
    int ranks = 1;
    int nodes = 1;
    double bytes = 0;
    double flops = 0;      // gemm only: 2·m·n·k
    std::string kernel;    // codec only
    double ratio = 0;      // codec topk kernels only
    int blocks = 0;        // codec topk_decode only
    double time_s = 0;
    std::vector<double> iteration_times_s;
};

bool is_network_op(const std::string& op);

/// Reads samples.jsonl. A malformed line is an InputError naming the file, the line and the key; a
/// last line cut short by a crash (no trailing newline, not valid JSON) is skipped and counted.
struct SampleFile {
    std::vector<Sample> samples;
    int truncated_lines = 0;
};
SampleFile read_samples_file(const std::string& path);
Sample sample_from_json_line(const std::string& line, const std::string& where);

}  // namespace dtsim::calibrate
