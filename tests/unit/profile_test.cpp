#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "dtsim/calibrate/profile_fitter.hpp"
#include "dtsim/calibrate/samples.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/median.hpp"
#include "dtsim/profile.hpp"
#include "test_support.hpp"

namespace profile_test {

using namespace dtsim;
using namespace dtsim::calibrate;

namespace {

FitQuality quality(int samples, double r_squared) { return {samples, r_squared, 0.01 / 3, 0.1 + 0.2}; }

/// Values chosen to need all 17 significant digits (1/3, 0.1 + 0.2) so that a lossy writer fails.
Profile example_profile() {
    Profile p;
    p.name = "two-node-test";
    p.source = "measured";
    p.description = "fitted from a \"test\" calibration";
    p.environment_json = R"({"hostname":"node1","gpus":[{"name":"H100","memory_gib":80}],"nccl":"2.21.5","ok":true})";
    p.network.push_back({NetworkOp::pingpong, TimingMode::latency, LinkClass::intra_node, 2, 1,
                         {{{0, 1.0 / 3 * 1e-5, 1e10 / 3}, {8192, 2.5e-6, 7777}, {65536, 1e-5, 12e9}}},
                         quality(90, 0.999),
                         {}});
    p.network.push_back(
        {NetworkOp::pingpong, TimingMode::throughput, LinkClass::intra_node, 2, 1, {{{0, 1e-6, 2e10}}}, quality(30, 0.98), {}});
    p.network.push_back({NetworkOp::allreduce, TimingMode::throughput, LinkClass::inter_node, 16, 2, {{{0, 4.2e-5, 9.87654321e10}}},
                         quality(40, -0.5), {{1024, 1.0 / 3 * 1e-4}, {1 << 20, 0.7 + 0.1}}});
    ComputeProfile compute;
    compute.device = "NVIDIA H100 80GB HBM3";
    compute.gemm.push_back({Precision::bf16, 2e-5, 7.123456789e14, quality(35, 0.9999)});
    compute.gemm.push_back({Precision::fp32, 1.5e-5, 5.1e13, quality(35, 0.99)});
    compute.memory_bytes_per_second = 3.0e12 / 7;
    compute.launch_overhead_s = 4.4e-6;
    compute.memory_quality = quality(10, 0.97);
    compute.shared_cores = SharedCores{2, 5};
    p.compute = compute;
    return p;
}

void check_equal(const FitQuality& a, const FitQuality& b) {
    CHECK(a.samples == b.samples);
    CHECK(a.r_squared == b.r_squared);
    CHECK(a.median_relative_error == b.median_relative_error);
    CHECK(a.max_relative_error == b.max_relative_error);
}

void check_equal(const Profile& a, const Profile& b) {
    CHECK(a.schema_version == b.schema_version);
    CHECK(a.name == b.name);
    CHECK(a.source == b.source);
    CHECK(a.description == b.description);
    CHECK(a.environment_json == b.environment_json);
    REQUIRE(a.network.size() == b.network.size());
    for (size_t i = 0; i < a.network.size(); ++i) {
        INFO("network[" << i << "]");
        CHECK(a.network[i].op == b.network[i].op);
        CHECK(a.network[i].mode == b.network[i].mode);
        CHECK(a.network[i].link_class == b.network[i].link_class);
        CHECK(a.network[i].ranks == b.network[i].ranks);
        CHECK(a.network[i].nodes == b.network[i].nodes);
        REQUIRE(a.network[i].model.segments.size() == b.network[i].model.segments.size());
        for (size_t s = 0; s < a.network[i].model.segments.size(); ++s) {
            CHECK(a.network[i].model.segments[s].min_bytes == b.network[i].model.segments[s].min_bytes);
            CHECK(a.network[i].model.segments[s].alpha_s == b.network[i].model.segments[s].alpha_s);
            CHECK(a.network[i].model.segments[s].bytes_per_second == b.network[i].model.segments[s].bytes_per_second);
        }
        check_equal(a.network[i].quality, b.network[i].quality);
        CHECK(a.network[i].measured == b.network[i].measured);
    }
    REQUIRE(a.compute.has_value() == b.compute.has_value());
    if (!a.compute) return;
    CHECK(a.compute->device == b.compute->device);
    REQUIRE(a.compute->gemm.size() == b.compute->gemm.size());
    for (size_t i = 0; i < a.compute->gemm.size(); ++i) {
        CHECK(a.compute->gemm[i].precision == b.compute->gemm[i].precision);
        CHECK(a.compute->gemm[i].fixed_s == b.compute->gemm[i].fixed_s);
        CHECK(a.compute->gemm[i].flops_per_second == b.compute->gemm[i].flops_per_second);
        check_equal(a.compute->gemm[i].quality, b.compute->gemm[i].quality);
    }
    CHECK(a.compute->memory_bytes_per_second == b.compute->memory_bytes_per_second);
    CHECK(a.compute->launch_overhead_s == b.compute->launch_overhead_s);
    check_equal(a.compute->memory_quality, b.compute->memory_quality);
    REQUIRE(a.compute->shared_cores.has_value() == b.compute->shared_cores.has_value());
    if (a.compute->shared_cores) {
        CHECK(a.compute->shared_cores->cores == b.compute->shared_cores->cores);
        CHECK(a.compute->shared_cores->ranks == b.compute->shared_cores->ranks);
    }
}

/// The 1-based line of the first occurrence of `needle` in `text`.
int line_of(const std::string& text, const std::string& needle) {
    const auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

void write_file(const std::string& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary);
    out << content;
}

/// Text that reads back as the same double.
std::string number(double value) {
    std::ostringstream text;
    text.precision(17);
    text << value;
    return text.str();
}

std::string network_line(const std::string& key, const std::string& op, const std::string& mode,
                         const std::string& link_class, int ranks, int nodes, double bytes, double time_s) {
    return R"({"key":")" + key + R"(","op":")" + op + R"(","mode":")" + mode + R"(","link_class":")" + link_class +
           R"(","ranks":)" + std::to_string(ranks) + R"(,"nodes":)" + std::to_string(nodes) + R"(,"bytes":)" +
           number(bytes) + R"(,"time_s":)" + number(time_s) + R"(,"iteration_times_s":[)" + number(time_s) +
           R"(],"backend":"nccl"})";
}

}  // namespace

TEST_CASE("profile JSON round-trips every field exactly", "[unit][profile]") {
    const auto original = example_profile();
    const auto text = profile_to_json(original);

    check_equal(profile_from_json(text, "p.json"), original);

    // Stable key order, two-space indentation, the environment embedded as an object.
    CHECK(text.find("{\n  \"schema_version\": 1,\n  \"name\": \"two-node-test\",\n  \"source\"") == 0);
    CHECK(text.find("\"description\"") < text.find("\"environment\""));
    CHECK(text.find("\"environment\"") < text.find("\"network\""));
    CHECK(text.find("\"network\"") < text.find("\"compute\""));
    CHECK(text.find("\"hostname\": \"node1\"") != std::string::npos);

    SECTION("a datasheet profile without compute") {
        auto datasheet = original;
        datasheet.source = "datasheet";
        datasheet.environment_json = "{}";
        datasheet.description = "";
        datasheet.compute.reset();
        const auto datasheet_text = profile_to_json(datasheet);
        CHECK(datasheet_text.find("\"compute\"") == std::string::npos);
        check_equal(profile_from_json(datasheet_text, "d.json"), datasheet);
    }
    SECTION("from a file") {
        test::TempDir dir;
        write_file(dir.file("p.json"), text);
        check_equal(load_profile_file(dir.file("p.json")), original);
        CHECK_THROWS_WITH(load_profile_file(dir.file("absent.json")), Catch::Contains("absent.json"));
    }
    SECTION("shared while the file is unchanged, read again when it changes") {
        test::TempDir dir;
        write_file(dir.file("p.json"), text);
        const auto first = load_shared_profile_file(dir.file("p.json"));
        check_equal(*first, original);
        CHECK(load_shared_profile_file(dir.file("p.json")) == first);
        auto renamed = original;
        renamed.name = original.name + "-rewritten";
        write_file(dir.file("p.json"), profile_to_json(renamed));
        const auto second = load_shared_profile_file(dir.file("p.json"));
        CHECK(second != first);
        check_equal(*second, renamed);
        CHECK_THROWS_WITH(load_shared_profile_file(dir.file("absent.json")), Catch::Contains("absent.json"));
    }
}

TEST_CASE("a link cost follows its curve where it is faster than the link, and a pass's first step from idle",
          "[unit][profile]") {
    Profile profile;
    // Back to back: 10 us + bytes at 100 MB/s below 64 KiB, bytes at 80 MB/s above: mid sizes are faster
    // than the link (latency 10 us, 80 MB/s). One at a time: 5 us + bytes at 200 MB/s (a burst).
    const PiecewiseAlphaBeta steady{{{0, 10e-6, 100e6}, {65536, 0, 80e6}}};
    const PiecewiseAlphaBeta idle{{{0, 5e-6, 200e6}}};
    profile.network.push_back(NetworkFit{NetworkOp::sendrecv, TimingMode::throughput, LinkClass::inter_node, 4, 4, steady, {}, {}});
    profile.network.push_back(NetworkFit{NetworkOp::sendrecv, TimingMode::latency, LinkClass::inter_node, 4, 4, idle, {}, {}});
    const auto cost = profile.link_cost(LinkClass::inter_node);
    REQUIRE(cost);
    REQUIRE(cost->from_idle);
    CHECK(cost->latency_s == 10e-6);
    CHECK(cost->bytes_per_second == 80e6);
    auto alone_s = [&](const MessageCost& c) { return c.overhead_s + cost->latency_s + c.wire_bytes / cost->bytes_per_second; };
    for (double bytes : {0.0, 1000.0, 32768.0, 65535.0, 1e6, 1e8}) {
        CAPTURE(bytes);
        const auto next = cost->message_cost(bytes);
        const auto first = cost->message_cost(bytes, true);
        // Alone, a message takes its fitted time, and never less than the link's latency.
        CHECK(alone_s(next) == Approx(std::max(steady.seconds(bytes), 10e-6)).epsilon(1e-12));
        CHECK(alone_s(first) == Approx(std::max(idle.seconds(bytes), 10e-6)).epsilon(1e-12));
        CHECK(next.overhead_s >= 0);
        CHECK(next.wire_bytes <= bytes);
    }
    // 32 KiB back to back: 10 us + 327.68 us fitted against 10 us + 409.6 us at the link's rate, so the
    // flow carries 327.68 us at 80 MB/s: 26 214.4 bytes, and waits for nothing.
    CHECK(cost->message_cost(32768).wire_bytes == Approx(26214.4).epsilon(1e-12));
    CHECK(cost->message_cost(32768).overhead_s == 0);
    // 1 MB one at a time is faster than the link; back to back only by the link's latency (the last
    // segment's alpha is 0), which is 800 bytes at 80 MB/s.
    CHECK(cost->message_cost(1e6, true).wire_bytes == Approx((5e-6 + 1e6 / 200e6 - 10e-6) * 80e6).epsilon(1e-12));
    CHECK(cost->message_cost(1e6).wire_bytes == Approx(1e6 - 800).epsilon(1e-12));
}

TEST_CASE("a ring of k ranks takes the ring step timed with k ranks, on the whole class's link", "[unit][profile]") {
    Profile profile;
    // The whole class (4 ranks): 20 us + bytes at 100 MB/s; the first two alone: 10 us + bytes at 125 MB/s.
    const PiecewiseAlphaBeta four{{{0, 20e-6, 100e6}}};
    const PiecewiseAlphaBeta two{{{0, 10e-6, 125e6}}};
    profile.network.push_back(NetworkFit{NetworkOp::sendrecv, TimingMode::throughput, LinkClass::inter_node, 2, 2, two, {}, {}});
    profile.network.push_back(NetworkFit{NetworkOp::sendrecv, TimingMode::throughput, LinkClass::inter_node, 4, 4, four, {}, {}});
    profile.network.push_back(NetworkFit{NetworkOp::pingpong, TimingMode::latency, LinkClass::inter_node, 2, 2, two, {}, {}});
    // The exact size where there is one, else the largest ring; a ring step before a ping-pong.
    CHECK(profile.point_to_point(LinkClass::inter_node, 2) == &profile.network[0]);
    CHECK(profile.point_to_point(LinkClass::inter_node, 4) == &profile.network[1]);
    CHECK(profile.point_to_point(LinkClass::inter_node, 3) == &profile.network[1]);
    CHECK(profile.point_to_point(LinkClass::inter_node) == &profile.network[1]);
    const auto steps = profile.ring_step_costs(LinkClass::inter_node);
    REQUIRE(steps.size() == 2);
    CHECK(steps.at(2).bytes_per_second == 125e6);
    CHECK(steps.at(4).bytes_per_second == 100e6);

    // A cluster's link is the whole class's; a step of a ring of two costs the two-rank fit's time on it.
    const auto base = profile.link_cost(LinkClass::inter_node);
    REQUIRE(base);
    const LinkModel link{"profile:test", base->bytes_per_second, base->latency_s, 1.0, base, steps};
    auto alone_s = [&](const MessageCost& c) { return c.overhead_s + link.latency_s + c.wire_bytes / link.bytes_per_second; };
    for (double bytes : {100.0, 65536.0, 1e6}) {
        CAPTURE(bytes);
        // Never less than the link's latency (a flow pays it), as LinkCost::message_cost.
        CHECK(alone_s(link.message_cost(bytes, false, 2)) == Approx(std::max(10e-6 + bytes / 125e6, 20e-6)).epsilon(1e-12));
        CHECK(alone_s(link.message_cost(bytes, false, 4)) == Approx(20e-6 + bytes / 100e6).epsilon(1e-12));
        CHECK(alone_s(link.message_cost(bytes, false, 3)) == Approx(20e-6 + bytes / 100e6).epsilon(1e-12));
    }
    // 1 MB in a ring of two: 8.01 ms against the link's 10.02 ms, so the flow carries 7.99 ms at 100 MB/s.
    CHECK(link.message_cost(1e6, false, 2).wire_bytes == Approx((10e-6 + 1e6 / 125e6 - 20e-6) * 100e6).epsilon(1e-12));
}

TEST_CASE("piecewise model, link costs and lookups", "[unit][profile]") {
    const auto profile = example_profile();
    const auto& model = profile.network[0].model;
    CHECK(&model.segment_for(0) == &model.segments[0]);
    CHECK(&model.segment_for(8191) == &model.segments[0]);
    CHECK(&model.segment_for(8192) == &model.segments[1]);
    CHECK(&model.segment_for(1e12) == &model.segments[2]);
    CHECK(model.seconds(7777 * 2) == Approx(2.5e-6 + 2).epsilon(1e-15));

    // Two intra-node pingpong fits: the latency-mode one is the link's.
    REQUIRE(profile.point_to_point(LinkClass::intra_node) == &profile.network[0]);
    CHECK(profile.point_to_point(LinkClass::inter_node) == nullptr);
    CHECK_FALSE(profile.link_cost(LinkClass::mixed));

    const auto cost = profile.link_cost(LinkClass::intra_node);
    REQUIRE(cost);
    CHECK(cost->latency_s == 1.0 / 3 * 1e-5);
    CHECK(cost->bytes_per_second == 12e9);
    // Large messages: the fitted time is latency + size / bandwidth plus the segment's extra alpha.
    CHECK(cost->message_cost(1e6).overhead_s == Approx(1e-5 - 1.0 / 3 * 1e-5).epsilon(1e-9));
    CHECK(cost->message_cost(1e6).wire_bytes == 1e6);
    CHECK(cost->message_cost(0).overhead_s == 0);  // the first segment is the link itself
    CHECK_FALSE(cost->from_idle);  // a latency-mode fit already starts from idle

    CHECK(profile.compute->gemm_for(Precision::bf16)->flops_per_second == 7.123456789e14);
    CHECK(profile.compute->gemm_for(Precision::fp16) == nullptr);

    // A fit with its measured sizes gives them back, interpolates linearly between them and falls back to
    // the model outside them; without measured sizes it is the model.
    const auto& allreduce = profile.network[2];
    CHECK(allreduce.seconds(1024) == 1.0 / 3 * 1e-4);
    CHECK(allreduce.seconds(1 << 20) == 0.7 + 0.1);
    const double middle = (1024 + (1 << 20)) / 2.0;
    CHECK(allreduce.seconds(middle) == Approx((1.0 / 3 * 1e-4 + 0.8) / 2).epsilon(1e-12));
    CHECK(allreduce.seconds(100) == allreduce.model.seconds(100));
    CHECK(allreduce.seconds(1e9) == allreduce.model.seconds(1e9));
    CHECK(profile.network[0].seconds(5000) == model.seconds(5000));

    CHECK(to_string(LinkClass::inter_node) == "inter_node");
    CHECK(kLinkClassNames.parse("mixed") == LinkClass::mixed);
    CHECK_FALSE(kLinkClassNames.parse("intra"));
}

TEST_CASE("invalid profiles name the file, line and key", "[unit][profile]") {
    const auto text = profile_to_json(example_profile());

    SECTION("a negative bandwidth") {
        const auto bad = replaced(text, "7777.0", "-7777.0");
        const int line = line_of(bad, "-7777.0");
        const auto expected = "bad.json:" + std::to_string(line) + ": key 'network[0].segments[1].bytes_per_second'";
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"), Catch::Contains(expected));
    }
    SECTION("an unknown op, with a suggestion") {
        const auto bad = replaced(text, "\"allreduce\"", "\"allreduse\"");
        const int line = line_of(bad, "allreduse");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"),
                          Catch::Contains("bad.json:" + std::to_string(line) + ": key 'network[2].op'") &&
                              Catch::Contains("did you mean 'allreduce'"));
    }
    SECTION("a newer schema") {
        const auto bad = replaced(text, "\"schema_version\": 1", "\"schema_version\": 99");
        CHECK_THROWS_WITH(profile_from_json(bad, "new.json"),
                          Catch::Contains("new.json:2: key 'schema_version'") && Catch::Contains("newer"));
    }
    SECTION("an unknown key") {
        const auto bad = replaced(text, "\"description\"", "\"descripton\"");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"),
                          Catch::Contains("key 'descripton'") && Catch::Contains("did you mean 'description'"));
    }
    SECTION("segments out of order") {
        const auto bad = replaced(text, "\"min_bytes\": 65536.0", "\"min_bytes\": 4096.0");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"), Catch::Contains("network[0].segments[2].min_bytes"));
    }
    SECTION("a first segment not starting at zero") {
        const auto bad = replaced(text, "\"min_bytes\": 0.0", "\"min_bytes\": 1.0");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"), Catch::Contains("network[0].segments[0].min_bytes"));
    }
    SECTION("a measured time that is not positive") {
        const auto bad = replaced(text, "0.7999999999999999", "-0.8");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"),
                          Catch::Contains("bad.json:") && Catch::Contains(": key 'network[2].measured[1]'") &&
                              Catch::Contains("[bytes, seconds] or [bytes, seconds, standard error] items"));
    }
    SECTION("intercepts: a later segment's may be negative, the first's not, and no time may be negative") {
        // The third segment (from 64 KiB at 12 GB/s) starts at 10 us + 5.46 us.
        const auto later = profile_from_json(replaced(text, "\"alpha_s\": 1e-05", "\"alpha_s\": -5e-06"), "ok.json");
        CHECK(later.network[0].model.segments[2].alpha_s == -5e-6);
        const auto below_zero = replaced(text, "\"alpha_s\": 1e-05", "\"alpha_s\": -6e-06");
        CHECK_THROWS_WITH(profile_from_json(below_zero, "bad.json"),
                          Catch::Contains("bad.json:" + std::to_string(line_of(below_zero, "-6e-06")) +
                                          ": key 'network[0].segments[2].alpha_s'") &&
                              Catch::Contains("positive time"));
        const auto first = replaced(text, "\"alpha_s\": 1e-06", "\"alpha_s\": -1e-06");
        CHECK_THROWS_WITH(profile_from_json(first, "bad.json"), Catch::Contains("network[1].segments[0].alpha_s"));
    }
    SECTION("shared cores: positive counts only") {
        const auto bad = replaced(text, "\"cores\": 2", "\"cores\": 0");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"),
                          Catch::Contains("bad.json:" + std::to_string(line_of(bad, "\"cores\": 0")) +
                                          ": key 'compute.shared_cores.cores'"));
    }
    SECTION("a one-rank collective") {
        const auto bad = replaced(text, "\"ranks\": 16", "\"ranks\": 1");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"), Catch::Contains("network[2].ranks"));
    }
    SECTION("an unknown precision") {
        const auto bad = replaced(text, "\"bf16\"", "\"bf61\"");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"), Catch::Contains("compute.gemm[0].precision"));
    }
    SECTION("a zero GEMM rate") {
        const auto bad = replaced(text, "\"flops_per_second\": 51000000000000.0", "\"flops_per_second\": 0");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"),
                          Catch::Contains("compute.gemm[1].flops_per_second': expected a compute rate from 1 MFLOPS to "
                                          "100 PFLOPS, got '0'"));
    }
    SECTION("a missing environment") {
        auto without = example_profile();
        without.environment_json = "{}";
        const auto bad = replaced(profile_to_json(without), "\"environment\": {},\n", "");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"), Catch::Contains("key 'environment': is missing"));
    }
    SECTION("not JSON at all") {
        CHECK_THROWS_AS(profile_from_json("{\"schema_version\": 1,", "bad.json"), InputError);
        CHECK_THROWS_WITH(profile_from_json("[1, 2]", "bad.json"), Catch::Contains("bad.json:1"));
    }
}

TEST_CASE("a profile's quantities are refused outside their physical ranges", "[unit][profile][limits]") {
    const auto text = profile_to_json(example_profile());
    const auto error_with = [&text](const std::string& from, const std::string& to) {
        try {
            profile_from_json(replaced(text, from, to), "bad.json");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK_THAT(error_with("7777.0", "1e-318"),
               Catch::Contains("key 'network[0].segments[1].bytes_per_second': expected a fitted per-byte rate from 125 "
                               "(1 kbit/s) to 1e15 bytes per second, got '1e-318'"));
    CHECK_THAT(error_with("7777.0", "124"), Catch::Contains("network[0].segments[1].bytes_per_second"));
    CHECK(error_with("7777.0", "125").empty());
    CHECK_THAT(error_with("\"launch_overhead_s\": 4.4e-06", "\"launch_overhead_s\": 1e300"),
               Catch::Contains("key 'compute.launch_overhead_s': expected a latency from 0 to 10 s, got '1e300'"));
    CHECK_THAT(error_with("\"flops_per_second\": 51000000000000.0", "\"flops_per_second\": 1e300"),
               Catch::Contains("key 'compute.gemm[1].flops_per_second': expected a compute rate"));
    CHECK_THAT(error_with("\"alpha_s\": 1e-05", "\"alpha_s\": -11"),
               Catch::Contains("key 'network[0].segments[2].alpha_s': expected a number from -10 to 10"));
    CHECK_THAT(error_with("0.7999999999999999", "1e300"),
               Catch::Contains("key 'network[2].measured[1]': expected a duration from 0 to 1 year (8766 h) for the time "
                               "of each [bytes, seconds] pair, got 1e300"));
}

TEST_CASE("a profile environment that is not UTF-8 is an input error, not a JSON exception", "[unit][profile]") {
    // nlohmann::json refused to write such an environment back (exit 1, its type_error 316); the text is
    // refused where it is read instead.
    const std::string bad = "{\"schema_version\": 1, \"name\": \"x\", \"source\": \"measured\",\n"
                            "\"environment\": {\"host\": \"\xff\"}, \"network\": []}";
    CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"),
                      Catch::Contains("bad.json:2: key 'environment.host': expected UTF-8 text, got the byte 0xff"));
}

TEST_CASE("samples file: truncated last line is skipped, a bad line is an error", "[unit][profile]") {
    test::TempDir dir;
    const auto good1 = network_line("a", "allreduce", "throughput", "intra_node", 8, 1, 1024, 1e-5);
    const auto good2 = network_line("b", "allreduce", "throughput", "intra_node", 8, 1, 2048, 1.5e-5);

    SECTION("a last line cut short by a crash") {
        write_file(dir.file("s.jsonl"), good1 + "\n\n" + good2 + "\n" + good2.substr(0, 40));
        const auto file = read_samples_file(dir.file("s.jsonl"));
        CHECK(file.truncated_lines == 1);
        REQUIRE(file.samples.size() == 2);
        CHECK(file.samples[1].key == "b");
        CHECK(file.samples[1].op == CalibrationOp{NetworkOp::allreduce});
        CHECK(file.samples[1].mode == TimingMode::throughput);
        CHECK(file.samples[1].link_class == LinkClass::intra_node);
        CHECK(file.samples[1].ranks == 8);
        CHECK(file.samples[1].bytes == 2048);
        CHECK(file.samples[1].time_s == 1.5e-5);
        CHECK(file.samples[1].iteration_times_s == std::vector<double>{1.5e-5});
    }
    SECTION("a complete but bad line in the middle") {
        const auto bad = replaced(good2, "\"time_s\":1.5", "\"time_s\":-1.5");
        write_file(dir.file("s.jsonl"), good1 + "\n" + bad + "\n" + good1 + "\n");
        CHECK_THROWS_WITH(read_samples_file(dir.file("s.jsonl")),
                          Catch::Contains("s.jsonl:2: key 'time_s': expected a positive number"));
    }
    SECTION("a cut-short line that is not the last one") {
        write_file(dir.file("s.jsonl"), good2.substr(0, 40) + "\n" + good1 + "\n");
        CHECK_THROWS_WITH(read_samples_file(dir.file("s.jsonl")), Catch::Contains("s.jsonl:1:"));
    }
    SECTION("a missing file") {
        CHECK_THROWS_WITH(read_samples_file(dir.file("none.jsonl")), Catch::Contains("none.jsonl"));
    }
}

TEST_CASE("sample lines: fields per op", "[unit][profile]") {
    const auto gemm = sample_from_json_line(
        R"({"key":"g","op":"gemm","time_s":0.001,"ranks":1,"nodes":1,"device":"cpu","dtype":"float32",)"
        R"("m":64,"n":128,"k":256})",
        "x", 1);
    CHECK(gemm.flops == 2.0 * 64 * 128 * 256);
    CHECK(gemm.dtype == "float32");
    CHECK(gemm.device == "cpu");
    CHECK(gemm.iteration_times_s.empty());

    CHECK_THROWS_WITH(sample_from_json_line(R"({"key":"x","op":"allreduse","time_s":1,"ranks":2,"nodes":1})", "f", 7),
                      Catch::Contains("f:7: key 'op'") && Catch::Contains("did you mean 'allreduce'"));
    CHECK_THROWS_WITH(sample_from_json_line(R"({"key":"x","op":"pingpong","time_s":1,"ranks":2,"nodes":1,)"
                                            R"("mode":"latency","link_class":"intra_node"})",
                                            "f", 3),
                      Catch::Contains("f:3: key 'bytes': expected a positive number"));
    CHECK_THROWS_WITH(sample_from_json_line(R"({"key":"x","op":"launch_latency","time_s":1,"ranks":0,"nodes":1,)"
                                            R"("device":"cpu"})",
                                            "f", 4),
                      Catch::Contains("f:4: key 'ranks'"));
    CHECK_THROWS_WITH(sample_from_json_line("[1]", "f", 5), Catch::Contains("f:5: expected one JSON object"));
}

TEST_CASE("fit_profile groups the samples and fits each group", "[unit][profile]") {
    std::vector<Sample> samples;
    const auto add = [&samples](const std::string& line) { samples.push_back(sample_from_json_line(line, "test", 1)); };
    int key = 0;
    for (double bytes = 8; bytes <= 1 << 20; bytes *= 2) {
        for (int repetition = 0; repetition < 3; ++repetition) {
            add(network_line(std::to_string(key++), "pingpong", "latency", "inter_node", 2, 2, bytes,
                             3e-6 + bytes / 2e10));
            add(network_line(std::to_string(key++), "allreduce", "throughput", "intra_node", 8, 1, bytes,
                             1e-5 + bytes / 1e11));
        }
    }
    // One size only: no slope to fit, so the group is left out.
    add(network_line("single", "broadcast", "latency", "intra_node", 4, 1, 4096, 2e-5));
    for (double n : {256.0, 512.0, 1024.0, 2048.0}) {
        const double flops = 2 * n * n * n;
        add(R"({"key":"g)" + number(n) + R"(","op":"gemm","time_s":)" + number(1e-5 + flops / 1e12) +
            R"(,"ranks":1,"nodes":1,"device":"cpu","dtype":"float16","flops":)" + number(flops) + "}");
        add(R"({"key":"t)" + number(n) + R"(","op":"gemm","time_s":)" + number(2e-5 + flops / 4e11) +
            R"(,"ranks":1,"nodes":1,"device":"cpu","dtype":"tfloat32","flops":)" + number(flops) + "}");
    }
    for (double bytes : {1e6, 1e7, 1e8})
        add(R"({"key":"m)" + number(bytes) + R"(","op":"memory_bandwidth","time_s":)" + number(bytes / 2e10) +
            R"(,"ranks":1,"nodes":1,"device":"cpu","bytes":)" + number(bytes) + "}");
    for (double t : {3e-6, 1e-6, 2e-6, 9e-6})
        add(R"({"key":"l)" + number(t) + R"(","op":"launch_latency","time_s":)" + number(t) +
            R"(,"ranks":1,"nodes":1,"device":"cpu"})");

    const auto profile = fit_profile(samples, R"({"host":"n1"})", "cpu-test");

    CHECK(profile.name == "cpu-test");
    CHECK(profile.source == "measured");
    CHECK(profile.schema_version == kProfileSchemaVersion);
    CHECK(profile.environment_json == R"({"host":"n1"})");
    REQUIRE(profile.network.size() == 2);
    CHECK(profile.network[0].op == NetworkOp::allreduce);
    CHECK(profile.network[0].ranks == 8);
    CHECK(profile.network[0].nodes == 1);
    CHECK(profile.network[0].link_class == LinkClass::intra_node);
    CHECK(profile.network[1].op == NetworkOp::pingpong);
    CHECK(profile.network[1].mode == TimingMode::latency);
    CHECK(profile.network[1].link_class == LinkClass::inter_node);
    CHECK(profile.network[1].quality.samples == 18 * 3);
    REQUIRE(profile.network[1].model.segments.size() == 1);
    CHECK(profile.network[1].model.segments[0].alpha_s == Approx(3e-6).epsilon(1e-6));
    CHECK(profile.network[1].model.segments[0].bytes_per_second == Approx(2e10).epsilon(1e-6));
    CHECK(profile.network[1].quality.r_squared == Approx(1).epsilon(1e-9));

    const auto link = profile.link_cost(LinkClass::inter_node);
    REQUIRE(link);
    CHECK(link->latency_s == Approx(3e-6).epsilon(1e-6));

    // Every size is kept as a measured point: the median over its samples of their mean iteration time.
    REQUIRE(profile.network[1].measured.size() == 18);
    CHECK(profile.network[1].measured.front().first == 8);
    CHECK(profile.network[1].measured.front().second == Approx(3e-6 + 8 / 2e10).epsilon(1e-12));

    REQUIRE(profile.compute);
    CHECK(profile.compute->device == "cpu");
    REQUIRE(profile.compute->gemm.size() == 2);
    const auto* fp16 = profile.compute->gemm_for(Precision::fp16);
    REQUIRE(fp16 != nullptr);
    CHECK(fp16->flops_per_second == Approx(1e12).epsilon(1e-4));
    CHECK(fp16->fixed_s == Approx(1e-5).epsilon(1e-3));
    const auto* tf32 = profile.compute->gemm_for(Precision::tf32);  // dtype tfloat32: fp32 operands on tensor cores
    REQUIRE(tf32 != nullptr);
    CHECK(tf32->flops_per_second == Approx(4e11).epsilon(1e-4));
    CHECK(tf32->fixed_s == Approx(2e-5).epsilon(1e-3));
    CHECK(profile.compute->memory_bytes_per_second == Approx(2e10).epsilon(1e-4));
    CHECK(profile.compute->memory_quality.samples == 3);
    CHECK(profile.compute->launch_overhead_s == Approx(2.5e-6));
    CHECK_FALSE(profile.compute->shared_cores);  // the environment names no machines

    // Shared cores come from the environment's machines where every one has more ranks than cores, alike.
    auto shared_with = [&](const std::string& machines) {
        return fit_profile(samples, R"({"machines":)" + machines + "}", "m").compute->shared_cores;
    };
    const auto testbed = shared_with(R"([{"cores":2,"ranks":[0,1,2,3,4]}])");
    REQUIRE(testbed);
    CHECK(testbed->cores == 2);
    CHECK(testbed->ranks == 5);
    CHECK(shared_with(R"([{"cores":2,"ranks":[0,1,2]},{"cores":2,"ranks":[3,4,5]}])")->ranks == 3);
    CHECK_FALSE(shared_with(R"([{"cores":8,"ranks":[0,1,2,3]}])"));                                // a core each
    CHECK_FALSE(shared_with(R"([{"cores":2,"ranks":[0,1,2]},{"cores":2,"ranks":[3,4,5,6]}])"));  // unlike

    // What the fitter writes, the loader accepts.
    const auto reloaded = profile_from_json(profile_to_json(profile), "fitted.json");
    CHECK(reloaded.network.size() == 2);
    CHECK(reloaded.compute->gemm[0].flops_per_second == profile.compute->gemm[0].flops_per_second);

    CHECK_THROWS_AS(fit_profile({}, "{}", "empty"), InputError);
}

namespace {

// A 4-rank latency-mode all-reduce sample of `bytes` with these timed iterations (ms) and their median as time_s.
Sample allreduce_sample(double bytes, const std::vector<double>& times_ms) {
    std::string times;
    for (double t : times_ms) times += (times.empty() ? "" : ",") + number(t * 1e-3);
    return sample_from_json_line(R"({"key":"a)" + number(bytes) + R"(","op":"allreduce","mode":"latency",)"
                                 R"("link_class":"inter_node","ranks":4,"nodes":4,"bytes":)" + number(bytes) +
                                     R"(,"time_s":)" + number(median(times_ms) * 1e-3) + R"(,"iteration_times_s":[)" + times +
                                     R"(],"backend":"mpi"})",
                                 "test", 1);
}

}  // namespace

TEST_CASE("a fit's measured points are mean iteration times, its model the medians", "[unit][profile]") {
    // Right-skewed timings, as on a shared network: median 1 ms, mean 1.6 ms; at twice the size, twice that.
    std::vector<Sample> samples;
    for (double k : {1.0, 2.0}) samples.push_back(allreduce_sample(k * 1e6, {k, k, k, 2.5 * k, 2.5 * k}));
    const auto profile = fit_profile(samples, "{}", "skewed");
    REQUIRE(profile.network.size() == 1);
    const auto& fit = profile.network[0];
    CHECK(fit.model.seconds(2e6) == Approx(2e-3).epsilon(1e-9));
    REQUIRE(fit.measured.size() == 2);
    CHECK(fit.measured[0].second == Approx(1.6e-3).epsilon(1e-12));
    CHECK(fit.measured[1].second == Approx(3.2e-3).epsilon(1e-12));
    CHECK(fit.seconds(1.5e6) == Approx(2.4e-3).epsilon(1e-12));
    CHECK(fit.stalls == 0);
    // Each point keeps the standard error of its mean: at 1 MB the sample variance is 2.7 / 4 ms², over 5 iterations.
    REQUIRE(fit.measured_error_s.size() == 2);
    CHECK(fit.measured_error_s[0] == Approx(std::sqrt(2.7 / 4 / 5) * 1e-3).epsilon(1e-9));
    CHECK(fit.measured_error_s[1] == Approx(2 * std::sqrt(2.7 / 4 / 5) * 1e-3).epsilon(1e-9));
    const auto reloaded = profile_from_json(profile_to_json(profile), "errors.json");
    CHECK(reloaded.network[0].measured_error_s == fit.measured_error_s);
    // A point's error is kept for all points or none.
    auto mixed = nlohmann::json::parse(profile_to_json(profile));
    mixed["network"][0]["measured"][1].erase(2);
    CHECK_THROWS_WITH(profile_from_json(mixed.dump(), "mixed.json"),
                      Catch::Contains("key 'network[0].measured[1]'") && Catch::Contains("(all alike)"));
}

TEST_CASE("a stalled iteration moves neither the model nor the measured point", "[unit][profile]") {
    // 1 ms + bytes at 1 GB/s, timed 15 times per size; at 2 MB one iteration stalled for 200 ms (a TCP
    // retransmission timeout).
    std::vector<Sample> samples;
    for (double bytes : {1e6, 2e6, 4e6, 8e6}) {
        const double ms = 1 + bytes / 1e6;
        std::vector<double> times(15, ms);
        times[3] = ms * 1.01;
        times[9] = ms * 0.99;
        if (bytes == 2e6) times[7] = 200;
        samples.push_back(allreduce_sample(bytes, times));
    }
    const auto profile = fit_profile(samples, "{}", "stalled");
    REQUIRE(profile.network.size() == 1);
    const auto& fit = profile.network[0];
    CHECK(fit.stalls == 1);
    REQUIRE(fit.measured.size() == 4);
    CHECK(fit.measured[1].second == Approx(3e-3).epsilon(1e-9));
    CHECK(fit.model.segments.front().alpha_s == Approx(1e-3).epsilon(1e-6));
    CHECK(fit.measured_error_s[1] < 0.01 * fit.measured[1].second);
    const auto reloaded = profile_from_json(profile_to_json(profile), "stalled.json");
    CHECK(reloaded.network[0].stalls == 1);
}

TEST_CASE("a size timed longer than the next larger one and well above the one before is left out as disturbed",
          "[unit][profile]") {
    // A shaped link: 50 us + bytes at 60 MB/s. At 2 MiB a disturbed sample (88 ms, where 35 ms is due); at
    // 64 KiB a step up to a slower protocol (+2 ms from there on), which must stay.
    auto truth = [](double bytes) { return 50e-6 + bytes / 60e6 + (bytes >= 65536 ? 2e-3 : 0); };
    std::vector<Sample> samples;
    int key = 0;
    for (double bytes = 1024; bytes <= 16.0 * 1024 * 1024; bytes *= 2) {
        const double seconds = bytes == 2097152 ? 88e-3 : truth(bytes);
        samples.push_back(sample_from_json_line(
            network_line(std::to_string(key++), "sendrecv", "latency", "inter_node", 5, 5, bytes, seconds), "test", 1));
    }

    const auto profile = fit_profile(samples, "{}", "disturbed");

    REQUIRE(profile.left_out.size() == 1);
    CHECK_THAT(profile.left_out[0], Catch::Contains("sendrecv/latency/inter_node/5r at 2097152 B: 88 ms") &&
                                        Catch::Contains("4194304 B"));
    REQUIRE(profile.network.size() == 1);
    const auto& fit = profile.network[0];
    CHECK(fit.quality.samples == 14);  // 15 sizes, one left out
    CHECK(std::none_of(fit.measured.begin(), fit.measured.end(), [](const auto& point) { return point.first == 2097152; }));
    // Without the disturbed size the fit follows the link: 2 MiB at its due time.
    CHECK(fit.model.seconds(2097152) == Approx(truth(2097152)).epsilon(0.02));
    CHECK(fit.seconds(65536) == Approx(truth(65536)).epsilon(1e-9));  // the step is a measured point still

    const auto reloaded = profile_from_json(profile_to_json(profile), "left-out.json");
    CHECK(reloaded.left_out == profile.left_out);
}

}  // namespace profile_test
