// A profile's calibrated codec kernels price the simulated encode and decode spans; without them the
// memory-bound passes run at the profile's memory bandwidth (direct-time models included).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>

#include "dtsim/cost_model.hpp"
#include "dtsim/sim/compression.hpp"
#include "test_support.hpp"

namespace codec_calibration_test {

using namespace dtsim;

namespace {

constexpr double kGradientBytes = 8e6;  // fp32: 2 M elements, one bucket
constexpr double kProfileMemory = 10e9;

// Rates of the magnitude 5 ranks on 2 cores measure (fp16 encode ~0.34 ms, decode ~1.2 ms, top-k
// selection ~11.7 ms per 2 MB bucket).
Profile cpu_profile(bool with_codecs) {
    Profile p;
    p.name = "codec-cpu";
    p.source = "measured";
    p.environment_json = "{}";
    p.network.push_back({NetworkOp::pingpong, TimingMode::latency, LinkClass::inter_node, 2, 2, {{{0, 40e-6, 117e6}}}, {}, {}});
    ComputeProfile compute;
    compute.device = "cpu";
    compute.gemm.push_back({Precision::fp32, 20e-6, 50e9, {}});
    compute.memory_bytes_per_second = kProfileMemory;
    if (with_codecs) {
        compute.codecs.push_back({CodecKernel::fp16_encode, 3e-6, 6.0e9, 0, 0, {}, {}});
        compute.codecs.push_back({CodecKernel::fp16_decode, 2e-6, 1.7e9, 0, 0, {}, {}});
        compute.codecs.push_back({CodecKernel::int8_encode, 4e-6, 1.1e9, 0, 0, {}, {}});
        compute.codecs.push_back({CodecKernel::int8_decode, 1e-6, 2.5e9, 0, 0, {}, {}});
        compute.codecs.push_back({CodecKernel::topk_encode, 20e-6, 1.8e8, 0.01, 0, {}, {}});
        compute.codecs.push_back({CodecKernel::topk_decode, 10e-6, 2.4e9, 0.01, 8, {}, {}});
        compute.codecs.push_back({CodecKernel::powersgd_encode, 50e-6, 2.0e8, 0, 0, {}, {}, {}, 4});
        compute.codecs.push_back({CodecKernel::powersgd_decode, 30e-6, 4.0e8, 0, 0, {}, {}, {}, 4});
    }
    p.compute = compute;
    return p;
}

Scenario scenario_with(const std::string& profile_path, int nodes, const std::string& compression) {
    std::string yaml = "name: codec\n";
    // The profile's inter-node fit is the NIC; without one the cluster names it.
    const std::string nic = profile_path.empty() ? ", nic: {bandwidth: 1Gbps, latency: 40us}" : "";
    if (!profile_path.empty()) yaml += "profile: " + profile_path + "\n";
    yaml += "cluster: {nodes: " + std::to_string(nodes) + ", gpus_per_node: 1, gpu: cpu" + nic +
            ", fabric: {topology: star}, network_model: ideal}\n"
            "model: {gradient_bytes: 8MB, forward_time: 0s, backward_time: 0s, batch_per_gpu: 1, layers: 1}\n"
            "training:\n  iterations: 1\n  strategy: {kind: allreduce, algorithm: ring, bucket: 1GB}\n"
            "  compression: " + compression + "\n";
    return load_scenario_text(yaml, "codec.yaml");
}

std::string write_profile(const test::TempDir& dir, const Profile& profile) {
    const auto path = dir.file("profile.json");
    std::ofstream(path) << profile_to_json(profile);
    return path;
}

/// Rank 0's encode and decode span durations (one bucket, one iteration; several spans of a name are summed).
std::map<std::string, double> codec_spans(const Run& run) {
    std::map<std::string, double> out;
    for (const auto& span : run.spans)
        if (span.rank == 0 && (span.name == "encode" || span.name == "decode")) out[span.name] += span.end_s - span.start_s;
    return out;
}

}  // namespace

TEST_CASE("sim::compress_bucket: a profile's codec fits price encode and decode, closed form", "[integration][compression]") {
    test::TempDir dir;
    const auto profile = cpu_profile(true);
    const auto path = write_profile(dir, profile);
    const auto& codecs = profile.compute->codecs;
    auto closed_form = [&](size_t i) { return codecs[i].fixed_s + kGradientBytes / codecs[i].bytes_per_second; };

    SECTION("fp16") {
        const auto spans = codec_spans(test::simulate_in_child(scenario_with(path, 4, "{kind: fp16}")));
        CHECK(spans.at("encode") == Approx(3e-6 + 8e6 / 6e9).epsilon(1e-9));
        CHECK(spans.at("encode") == Approx(closed_form(0)).epsilon(1e-9));
        CHECK(spans.at("decode") == Approx(closed_form(1)).epsilon(1e-9));
    }
    SECTION("int8: coded inside the ring, a quarter of the bucket at a time") {
        const auto spans = codec_spans(test::simulate_in_child(scenario_with(path, 4, "{kind: int8}")));
        auto chunk = [&](size_t i) { return codecs[i].fixed_s + kGradientBytes / 4 / codecs[i].bytes_per_second; };
        // Per rank on 4 ranks: 4 chunks quantized (3 reduce-scatter sends, the complete one) and 7 dequantized
        // (3 into the sum, the complete one, 3 all-gathered).
        CHECK(spans.at("encode") == Approx(4 * (4e-6 + 2e6 / 1.1e9)).epsilon(1e-9));
        CHECK(spans.at("encode") == Approx(4 * chunk(2)).epsilon(1e-9));
        CHECK(spans.at("decode") == Approx(7 * chunk(3)).epsilon(1e-9));
    }
    SECTION("top-k at the calibration's ratio and block count: the fits themselves") {
        const auto spans = codec_spans(
            test::simulate_in_child(scenario_with(path, 8, "{kind: topk, ratio: 0.01, error_feedback: false}")));
        CHECK(spans.at("encode") == Approx(20e-6 + 8e6 / 1.8e8).epsilon(1e-9));
        CHECK(spans.at("decode") == Approx(closed_form(5)).epsilon(1e-9));
    }
    SECTION("PowerSGD with one calibrated rank: the fits scaled by the scenario's rank / the calibrated one") {
        const auto at_four = codec_spans(test::simulate_in_child(scenario_with(path, 4, "{kind: powersgd, rank: 4, error_feedback: false}")));
        CHECK(at_four.at("encode") == Approx(50e-6 + 8e6 / 2.0e8).epsilon(1e-9));
        CHECK(at_four.at("decode") == Approx(closed_form(7)).epsilon(1e-9));
        const auto at_two = codec_spans(test::simulate_in_child(scenario_with(path, 4, "{kind: powersgd, rank: 2, error_feedback: false}")));
        CHECK(at_two.at("encode") == Approx(closed_form(6) / 2).epsilon(1e-9));
        CHECK(at_two.at("decode") == Approx(closed_form(7) / 2).epsilon(1e-9));
    }
    SECTION("PowerSGD with fits at two ranks: linear in the rank between them") {
        auto two_ranks = profile;
        two_ranks.compute->codecs.push_back({CodecKernel::powersgd_encode, 20e-6, 4.0e8, 0, 0, {}, {}, {}, 1});
        const auto two_path = dir.file("two-ranks.json");
        std::ofstream(two_path) << profile_to_json(two_ranks);
        const auto spans = codec_spans(test::simulate_in_child(scenario_with(two_path, 4, "{kind: powersgd, rank: 2, error_feedback: false}")));
        const double at_one = 20e-6 + kGradientBytes / 4.0e8;
        CHECK(spans.at("encode") == Approx(at_one + (closed_form(6) - at_one) / 3).epsilon(1e-9));
        CHECK(spans.at("decode") == Approx(closed_form(7) / 2).epsilon(1e-9));  // decode: rank 4 alone
    }
    SECTION("top-k on 4 ranks with error feedback: decode scaled to 4 blocks, feedback at the profile's bandwidth") {
        const auto spans = codec_spans(test::simulate_in_child(scenario_with(path, 4, "{kind: topk, ratio: 0.01}")));
        CHECK(spans.at("encode") == Approx(closed_form(4) + 4 * kGradientBytes / kProfileMemory).epsilon(1e-9));
        // Bytes touched per element: 4 blocks of 1 % 8-byte pairs plus the fp32 write, against the calibration's 8.
        const double scale = (4 * 0.01 * 8 + 4) / (8 * 0.01 * 8 + 4);
        CHECK(spans.at("decode") == Approx(10e-6 + 8e6 / 2.4e9 * scale).epsilon(1e-9));
    }
}

TEST_CASE("sim::compress_bucket: without codec fits, memory-bound passes at the profile's bandwidth", "[integration][compression]") {
    test::TempDir dir;
    const auto path = write_profile(dir, cpu_profile(false));
    const double n = kGradientBytes / 4;

    const auto with_profile = scenario_with(path, 4, "{kind: fp16}");
    const CostModel profile_costs(with_profile);
    const auto& profile_rates = profile_costs.compute();
    CHECK(profile_rates.memory_bytes_per_second == kProfileMemory);  // a direct-time model, the profile's rate
    CHECK(profile_rates.flops_per_second == 50e9);
    CHECK(profile_rates.codecs.empty());
    const auto spans = codec_spans(test::simulate_in_child(with_profile));
    CHECK(spans.at("encode") == Approx(n * (4 + 2) / kProfileMemory).epsilon(1e-9));
    CHECK(spans.at("decode") == Approx(n * (2 + 4) / kProfileMemory).epsilon(1e-9));

    // No profile: the GPU preset's achieved bandwidth, as before.
    const auto preset = scenario_with("", 4, "{kind: int8}");
    const CostModel preset_costs(preset);
    const double memory = preset_costs.compute().memory_bytes_per_second;
    CHECK(memory != kProfileMemory);
    const auto bucket = sim::compress_bucket(preset, preset_costs, kGradientBytes);
    // int8 on 4 ranks: the max-abs pass and quantization over the whole bucket in 4 chunks; 7 chunks of a
    // quarter dequantized.
    CHECK(bucket.encode_s == Approx((kGradientBytes + n * 5) / memory).epsilon(1e-12));
    CHECK(bucket.decode_s == Approx(7.0 / 4 * n * 5 / memory).epsilon(1e-12));
}

TEST_CASE("ranks that time-share cores (compute.shared_cores) code at once on the shared cores", "[integration][compression]") {
    test::TempDir dir;
    auto profile = cpu_profile(true);
    const auto& codecs = profile.compute->codecs;
    auto closed_form = [&](size_t i, double bytes) { return codecs[i].fixed_s + bytes / codecs[i].bytes_per_second; };
    auto spans_with = [&](SharedCores shared, int nodes, const std::string& compression) {
        profile.compute->shared_cores = shared;
        return codec_spans(test::simulate_in_child(scenario_with(write_profile(dir, profile), nodes, compression)));
    };

    SECTION("5 ranks on 2 cores encode and decode a whole bucket each at once: 2.5 times one core's time") {
        const auto spans = spans_with({2, 5}, 5, "{kind: fp16}");
        CHECK(spans.at("encode") == Approx(2.5 * closed_form(0, kGradientBytes)).epsilon(1e-6));
        CHECK(spans.at("decode") == Approx(2.5 * closed_form(1, kGradientBytes)).epsilon(1e-6));
    }
    SECTION("4 ranks on 1 core: 4 times; pools of 2 ranks with 2 cores each: one core's time") {
        CHECK(spans_with({1, 4}, 4, "{kind: fp16}").at("encode") == Approx(4 * closed_form(0, kGradientBytes)).epsilon(1e-6));
        CHECK(spans_with({2, 2}, 4, "{kind: fp16}").at("encode") == Approx(closed_form(0, kGradientBytes)).epsilon(1e-6));
    }
    SECTION("int8 codes between the ring's transfers: one core's time, as without sharing") {
        const auto spans = spans_with({2, 5}, 5, "{kind: int8}");
        CHECK(spans.at("encode") == Approx(5 * closed_form(2, kGradientBytes / 5)).epsilon(1e-9));
        CHECK(spans.at("decode") == Approx(9 * closed_form(3, kGradientBytes / 5)).epsilon(1e-9));
    }
}

}  // namespace codec_calibration_test
