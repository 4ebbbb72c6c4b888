// The local multi-host testbed (runtime/testbed/dtsim-testbed): network namespaces with tbf-shaped links.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

#include "test_support.hpp"

namespace testbed_test {

using namespace dtsim;

namespace {

const std::string kTestbed = (test::source_dir() / "runtime" / "testbed" / "dtsim-testbed").string();

// Tears the testbed down however the test ends.
struct TestbedUp {
    ~TestbedUp() { test::run_command(kTestbed, {"down"}); }
};

}  // namespace

TEST_CASE("a 2-host testbed shapes its link to the configured rate", "[mpi][testbed]") {
    if (test::run_command(kTestbed, {"status"}).exit_code == 0) {
        WARN("SKIPPED: a testbed is already up on this machine; not touching it");
        return;
    }
    const auto bad_queue = test::run_command(kTestbed, {"up", "2", "--queue", "0"});
    CHECK(bad_queue.exit_code == 2);
    CHECK_THAT(bad_queue.output, Catch::Contains("bad --queue '0'"));
    const auto bad_cc = test::run_command(kTestbed, {"up", "2", "--cc", "no-such-algorithm"});
    CHECK(bad_cc.exit_code == 2);
    CHECK_THAT(bad_cc.output, Catch::Contains("bad --cc 'no-such-algorithm'"));
    const auto bad_gso = test::run_command(kTestbed, {"up", "2", "--gso", "1500"});
    CHECK(bad_gso.exit_code == 2);
    CHECK_THAT(bad_gso.output, Catch::Contains("bad --gso '1500'"));
    const auto up = test::run_command(kTestbed, {"up", "2", "--rate", "200mbit", "--queue", "5", "--cc", "reno", "--gso", "32768"});
    if (up.exit_code == 2 && up.output.find("cannot create network namespaces") != std::string::npos) {
        WARN("SKIPPED: " + up.output);  // not root, or no CAP_SYS_ADMIN here
        return;
    }
    TestbedUp guard;
    REQUIRE(up.exit_code == 0);
    const auto status = test::run_command(kTestbed, {"status"});
    CHECK(status.exit_code == 0);
    // tbf burst = twice the GSO cap (32 KiB here), limit = burst + 5 ms at 25 MB/s.
    CHECK_THAT(status.output, Catch::Contains("burst=65536B limit=" + std::to_string(65536 + 125000) + "B"));
    for (const auto& [netns, link] : {std::pair{"dtsim-h1", "dtsim-eth"}, std::pair{"dtsim-sw", "dtsim-p1"}})
        CHECK_THAT(test::run_command("ip", {"-d", "-n", netns, "link", "show", link}).output, Catch::Contains("gso_max_size 32768"));
    // The congestion control is the one asked for, on the routes the hosts' connections take, whatever the
    // root namespace's default.
    CHECK_THAT(status.output, Catch::Contains("tcp=reno"));
    const auto routes = test::run_command("ip", {"-n", "dtsim-h1", "route", "show", "table", "all"});
    CHECK_THAT(routes.output, Catch::Contains("10.77.0.0/24 dev dtsim-eth proto kernel scope link src 10.77.0.2 congctl reno"));
    CHECK_THAT(routes.output, Catch::Contains("local 10.77.0.2 dev dtsim-eth table local proto kernel scope host src 10.77.0.2 congctl reno"));

    // The runtime's own send/recv between the two hosts (ping-pong: one direction at a time), 4 MiB messages.
    // Both directions at once are slower with Open MPI's single TCP connection per pair
    // (runtime/testbed/README.md): that is the MPI library, not the shaping under test.
    test::TempDir dir;
    const auto out = dir.file("cal");
    const auto run = test::run_command(kTestbed, {"run", "--", test::runtime_executable(), "calibrate", "--backend", "mpi",
                                                  "--out", out, "--ops", "pingpong", "--min", "4MiB", "--max", "4MiB"});
    CAPTURE(run.output);
    REQUIRE(run.exit_code == 0);
    std::ifstream in(out + "/samples.jsonl");
    int checked = 0;
    for (std::string line; std::getline(in, line);) {
        const auto sample = nlohmann::json::parse(line);
        CAPTURE(line);
        CHECK(sample.at("link_class") == "inter_node");  // each namespace is a node of its own
        CHECK(sample.at("nodes") == 2);
        // One direction of a 200 Mbit/s link: 25 MB/s on the wire, less TCP/IP/Ethernet headers (1448 of
        // every 1538 bytes with MTU 1500, 94 %). Within 10 % of the configured rate.
        const double payload_rate = sample.at("bytes").get<double>() / sample.at("time_s").get<double>();
        CHECK(payload_rate == Approx(200e6 / 8).epsilon(0.10));
        ++checked;
    }
    CHECK(checked == 1);

    // --per-host 2: ranks 0 and 1 on the first host, 2 and 3 on the second, as GPUs of two nodes.
    const auto placed = test::run_command(kTestbed, {"run", "--per-host", "2", "--", "sh", "-c", "echo rank $OMPI_COMM_WORLD_RANK on $(hostname)"});
    CAPTURE(placed.output);
    REQUIRE(placed.exit_code == 0);
    for (const char* line : {"rank 0 on dtsim-h0", "rank 1 on dtsim-h0", "rank 2 on dtsim-h1", "rank 3 on dtsim-h1"})
        CHECK_THAT(placed.output, Catch::Contains(line));
    CHECK(test::run_command(kTestbed, {"run", "--per-host", "0", "--", "true"}).exit_code == 2);

    CHECK(test::run_command(kTestbed, {"down"}).exit_code == 0);
    CHECK(test::run_command(kTestbed, {"status"}).exit_code == 1);
}

}  // namespace testbed_test
