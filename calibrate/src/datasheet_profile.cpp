#include "dtsim/calibrate/datasheet_profile.hpp"

#include <nlohmann/json.hpp>

#include "dtsim/compute_model.hpp"

namespace dtsim::calibrate {
namespace {

NetworkFit point_to_point(LinkClass link_class, const NetworkPreset& link) {
    NetworkFit fit;
    fit.op = NetworkOp::pingpong;
    fit.mode = TimingMode::latency;
    fit.link_class = link_class;
    fit.ranks = 2;
    fit.nodes = link_class == LinkClass::inter_node ? 2 : 1;
    fit.model.segments = {AlphaBetaSegment{0, link.latency_s, link.bytes_per_second * link.efficiency}};
    return fit;  // quality.samples = 0: nothing was measured
}

}  // namespace

Profile datasheet_profile(const std::string& name, const GpuPreset& gpu, const NetworkPreset& intra_node,
                          const NetworkPreset& nic) {
    Profile profile;
    profile.name = name;
    profile.source = "datasheet";
    profile.description = gpu.description + " with " + intra_node.name + " inside a node and " + nic.name +
                          " between nodes; derived from presets, not measured";
    profile.environment_json = nlohmann::ordered_json{{"basis", "hardware presets (data/hardware/)"},
                                                      {"gpu", gpu.name},
                                                      {"intra_node", intra_node.name},
                                                      {"nic", nic.name}}
                                   .dump();
    profile.network = {point_to_point(LinkClass::intra_node, intra_node), point_to_point(LinkClass::inter_node, nic)};
    ComputeProfile compute;
    compute.device = gpu.name;
    for (const auto& [precision, peak] : gpu.peak_flops_per_second) {
        GemmFit gemm;
        gemm.precision = precision;
        gemm.fixed_s = kKernelLaunchOverheadS;
        gemm.flops_per_second = peak * gpu.gemm_efficiency;
        compute.gemm.push_back(gemm);
    }
    compute.memory_bytes_per_second = gpu.memory_bytes_per_second * gpu.memory_efficiency;
    compute.launch_overhead_s = kKernelLaunchOverheadS;
    profile.compute = compute;
    return profile;
}

}  // namespace dtsim::calibrate
