// Node presets (data/hardware/node/): the realistic server is the short choice, and written keys win.
#include <catch2/catch.hpp>

#include "dtsim/data_paths.hpp"
#include "dtsim/hardware.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/scenario.hpp"

namespace node_preset_test {

using namespace dtsim;

namespace {

const char* const kRest = "model: {gradient_bytes: 1MB, forward_time: 1ms, backward_time: 2ms, batch_per_gpu: 1}\n"
                          "training: {strategy: {kind: allreduce}}\n";

ClusterSpec cluster_of(const std::string& cluster, const std::vector<std::string>& overrides = {}) {
    return load_scenario_text("name: s\ncluster: " + cluster + "\n" + kRest, "s.yaml", overrides).cluster;
}

}  // namespace

TEST_CASE("a node preset gives GPUs per node, GPU, NVLink and the NICs", "[unit][scenario][node]") {
    const auto dgx = cluster_of("{nodes: 2, node: dgx-h100}");
    CHECK(dgx.gpus_per_node == 8);
    CHECK(dgx.gpu.name == "h100-sxm");
    CHECK(dgx.intra_node.preset == "nvlink4");
    CHECK(dgx.nic.preset == "ib-ndr");
    CHECK(dgx.nics_per_node == 8);
    const auto a100 = cluster_of("{nodes: 2, node: dgx-a100}");
    CHECK(a100.gpu.name == "a100-sxm");
    CHECK(a100.nic.preset == "ib-hdr");
    CHECK(a100.nics_per_node == 8);
    CHECK(cluster_of("{nodes: 2, node: hgx-h200}").gpu.name == "h200");
    CHECK(cluster_of("{nodes: 2, node: dgx-b200}").intra_node.preset == "nvlink5");
    const auto dgx1 = cluster_of("{nodes: 2, node: dgx-1-v100}");
    CHECK(dgx1.gpu.name == "v100-sxm2");
    CHECK(dgx1.nic.preset == "ib-edr");
    CHECK(dgx1.nics_per_node == 4);
    const auto dgx2 = cluster_of("{nodes: 2, node: dgx-2}");
    CHECK(dgx2.gpus_per_node == 16);
    CHECK(dgx2.nics_per_node == 8);
    const auto p2 = cluster_of("{nodes: 2, node: aws-p2-8xlarge}");
    CHECK(p2.gpu.name == "k80");
    CHECK(p2.intra_node.preset == "pcie-gen3");
    CHECK(p2.nic.preset == "eth-10g");
    CHECK(p2.nics_per_node == 1);
}

TEST_CASE("keys written beside a node preset replace the preset's", "[unit][scenario][node]") {
    const auto nic_kind = cluster_of("{nodes: 2, node: dgx-h100, nic: eth-400g}");
    CHECK(nic_kind.nic.preset == "eth-400g");
    CHECK(nic_kind.nics_per_node == 8);  // the node's count stays with a NIC kind
    const auto fewer = cluster_of("{nodes: 2, node: dgx-h100, gpus_per_node: 4, nic: {count: 2}}");
    CHECK(fewer.gpus_per_node == 4);
    CHECK(fewer.nics_per_node == 2);
    CHECK(fewer.nic.preset == "ib-ndr");
    const auto gpu = cluster_of("{nodes: 2, node: dgx-h100, gpu: h200}");
    CHECK(gpu.gpu.name == "h200");
    CHECK(gpu.intra_node.preset == "nvlink4");
}

TEST_CASE("a NIC preset given with --set keeps the file's NIC count", "[unit][scenario][node]") {
    const std::string file = "{nodes: 2, gpus_per_node: 8, gpu: h100-sxm, nic: {count: 8, preset: ib-hdr}}";
    const auto kind = cluster_of(file, {"cluster.nic=ib-ndr"});
    CHECK(kind.nic.preset == "ib-ndr");
    CHECK(kind.nics_per_node == 8);
    const auto section = cluster_of(file, {"cluster.nic={preset: ib-ndr, count: 2}"});
    CHECK(section.nics_per_node == 2);
    CHECK(cluster_of("{nodes: 2, gpus_per_node: 8, gpu: h100-sxm, nic: ib-hdr}", {"cluster.nic=ib-ndr"}).nics_per_node == 1);
}

TEST_CASE("every node preset loads, and the 10 GbE, 800G and NVL72 links are there", "[unit][hardware]") {
    const auto nodes = list_data_names("hardware/node");
    CHECK(nodes == std::vector<std::string>{"aws-p2-8xlarge", "dgx-1-v100", "dgx-2", "dgx-a100", "dgx-b200", "dgx-h100", "hgx-h200"});
    for (const auto& name : nodes) {
        const auto node = load_node_preset(name, "test");
        CHECK(node.gpus_per_node % node.nic_count == 0);
        CHECK_NOTHROW(load_gpu_preset(node.gpu, "test"));
        CHECK_NOTHROW(load_network_preset(node.nic, "test"));
        CHECK_NOTHROW(load_network_preset(node.intra_node, "test"));
    }
    CHECK(load_network_preset("eth-10g", "test").bytes_per_second == Approx(1.25e9));
    CHECK(load_network_preset("ib-xdr", "test").bytes_per_second == Approx(100e9));
    CHECK(load_network_preset("eth-800g", "test").bytes_per_second == Approx(100e9));
    CHECK(load_network_preset("nvlink5-nvl72", "test").bytes_per_second == Approx(900e9));
}

TEST_CASE("a profile of another GPU is refused unless profile_mismatch: allow", "[unit][scenario][profile]") {
    const std::string text = "name: s\nprofile: dgx-a100.datasheet\ncluster: {nodes: 2, node: dgx-h100}\n" + std::string(kRest);
    CHECK_THROWS_WITH(load_scenario_text(text, "s.yaml"),
                      Catch::Contains("s.yaml:2: key 'profile'") && Catch::Contains("GPU a100-sxm") &&
                          Catch::Contains("h100-sxm (s.yaml:3: key 'cluster.node')"));
    const auto allowed = load_scenario_text("profile_mismatch: allow\n" + text, "s.yaml");
    CHECK(allowed.profile->name == "dgx-a100.datasheet");
    CHECK(allowed.cluster.gpu.name == "h100-sxm");
    CHECK_NOTHROW(load_scenario_text("name: s\nprofile: dgx-h100.datasheet\ncluster: {nodes: 2, node: dgx-h100}\n" +
                                         std::string(kRest),
                                     "s.yaml"));
}

}  // namespace node_preset_test
