#include <catch2/catch.hpp>

#include "dtsim/scaling_family.hpp"

namespace scaling_family_test {

using namespace dtsim;

TEST_CASE("core::scaling_family: only the cluster size may differ within a family", "[core][compare]") {
    const std::string a = "name: s\ncluster: {nodes: 2, gpus_per_node: 8, nic: ib-ndr}\ntraining: {strategy: {kind: allreduce}}\n";
    const std::string b = "name: s\ncluster: {nodes: 16, gpus_per_node: 4, nic: ib-ndr}\ntraining: {strategy: {kind: allreduce}}\n";
    const std::string c = "name: s\ncluster: {nodes: 2, gpus_per_node: 8, nic: ib-hdr}\ntraining: {strategy: {kind: allreduce}}\n";
    CHECK(scaling_family("s", a) == scaling_family("s", b));
    CHECK(scaling_family("s", a) != scaling_family("s", c));
    CHECK(scaling_family("t", a) != scaling_family("s", a));
    CHECK(scaling_family("imported", "{not: [yaml") == "imported");
}

}  // namespace scaling_family_test
