// Calibrated gradient-compression kernels: the plan's codec samples, their sample lines, the fit
// t = fixed + fp32 bytes / rate, and the profile's optional `compute.codecs`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "dtsim/calibrate/fitting.hpp"
#include "dtsim/calibrate/plan.hpp"
#include "dtsim/calibrate/profile_fitter.hpp"
#include "dtsim/calibrate/samples.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/profile.hpp"

namespace codec_fit_test {

using namespace dtsim;
using namespace dtsim::calibrate;

namespace {

std::string number(double value) {
    std::ostringstream text;
    text.precision(17);
    text << value;
    return text.str();
}

std::string codec_line(const std::string& kernel, double bytes, double time_s, int rank = 4) {
    std::string extra;
    if (kernel.starts_with("topk")) extra += R"(,"ratio":0.01)";
    if (kernel == "topk_decode") extra += R"(,"blocks":8)";
    if (kernel.starts_with("powersgd")) extra += R"(,"rank":)" + std::to_string(rank);
    const std::string rank_key = kernel.starts_with("powersgd") ? "rank" + std::to_string(rank) + "/" : "";
    return R"({"key":"codec/)" + kernel + "/" + rank_key + number(bytes) + R"(","op":"codec","kernel":")" + kernel +
           R"(","time_s":)" + number(time_s) + R"(,"ranks":2,"nodes":1,"device":"cpu","backend":"mpi","bytes":)" +
           number(bytes) + extra + "}";
}

Profile profile_with_codecs() {
    Profile p;
    p.name = "codec-test";
    p.source = "measured";
    p.environment_json = "{}";
    ComputeProfile compute;
    compute.device = "cpu";
    compute.gemm.push_back({Precision::fp32, 1e-5, 5e10, {7, 0.99, 0.01, 0.02}});
    compute.memory_bytes_per_second = 1e10;
    compute.memory_quality = {3, 0.98, 0.01, 0.03};
    compute.launch_overhead_s = 1e-6;
    compute.codecs.push_back({CodecKernel::fp16_encode, 2e-6, 1.0e10 / 3, 0, 0, {6, 0.999, 0.01, 0.1 + 0.2}, {{65536, 3e-5}, {262144, 1.0 / 3 * 1e-3}}});
    compute.codecs.push_back({CodecKernel::int8_decode, 0, 4.5e9, 0, 0, {6, 0.95, 0.02, 0.05}, {}});
    compute.codecs.push_back({CodecKernel::topk_encode, 1.0 / 3 * 1e-4, 1.8e8, 0.01, 0, {6, 0.97, 0.03, 0.06}, {}});
    compute.codecs.push_back({CodecKernel::topk_decode, 5e-6, 2.1e9, 0.01, 8, {6, 0.9, 0.04, 0.08}, {}});
    compute.codecs.push_back({CodecKernel::powersgd_encode, 4e-5, 3.5e8, 0, 0, {6, 0.99, 0.02, 0.04}, {}, {}, 4});
    compute.codecs.push_back({CodecKernel::powersgd_encode, 5e-5, 2.5e8, 0, 0, {6, 0.98, 0.03, 0.05}, {}, {}, 8});
    p.compute = compute;
    return p;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

int line_of(const std::string& text, const std::string& needle) {
    const auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

}  // namespace

TEST_CASE("calibrate::fit_codec: recovers fixed + bytes / rate from noisy timings", "[unit][fit]") {
    const auto kernel = [](double bytes) { return 100e-6 + bytes / 1.8e8; };  // ~ top-k selection on a CPU core
    std::mt19937 generator(5);
    std::normal_distribution<double> noise(0.0, 0.01);
    std::vector<Observation> observations;
    for (double bytes = 64 * 1024; bytes <= 64 * 1024 * 1024; bytes *= 4)
        for (int r = 0; r < 3; ++r) observations.push_back({bytes, kernel(bytes) * std::exp(noise(generator))});

    const auto fit = fit_codec(observations, CodecKernel::topk_encode, 0.01);

    CHECK(fit.kernel == CodecKernel::topk_encode);
    CHECK(fit.ratio == 0.01);
    CHECK(fit.blocks == 0);
    // 1 % noise on times ~4× the fixed term at the smallest size: the fixed term is known to ~10 %.
    CHECK(fit.fixed_s == Approx(100e-6).epsilon(0.1));
    CHECK(fit.bytes_per_second == Approx(1.8e8).epsilon(0.02));
    CHECK(fit.quality.samples == 18);
    CHECK(fit.quality.r_squared > 0.999);
    CHECK(fit.quality.median_relative_error < 0.02);
    CHECK(fit.quality.max_relative_error < 0.05);
    CHECK(fit.seconds(2e6) == Approx(fit.fixed_s + 2e6 / fit.bytes_per_second));  // no measured points: the model
    CHECK(fit.measured.empty());

    // Exact data is fitted exactly.
    const auto exact = fit_codec({{65536, 1e-6 + 65536 / 3e9}, {1 << 20, 1e-6 + (1 << 20) / 3e9}}, CodecKernel::fp16_encode);
    CHECK(exact.fixed_s == Approx(1e-6).epsilon(1e-9));
    CHECK(exact.bytes_per_second == Approx(3e9).epsilon(1e-9));
    CHECK_THROWS_WITH(fit_codec({{65536, 1e-5}}, CodecKernel::fp16_encode), Catch::Contains("2 distinct sizes"));
}

TEST_CASE("calibrate::make_plan: codec samples per kernel and size on CPUs, none on GPUs", "[unit][calibrate]") {
    const std::vector<int> two_ranks{0, 0};
    auto codec_keys = [&](const PlanOptions& options) {
        std::vector<std::string> keys;
        for (const auto& item : make_plan(options, two_ranks))
            if (item.kind == ItemKind::codec) keys.push_back(item.key());
        return keys;
    };
    PlanOptions full;
    const auto keys = codec_keys(full);
    REQUIRE(keys.size() == (6 + 2 * 3) * 6);  // 6 kernels, and 2 at PowerSGD's 3 ranks, × 64 KiB, 256 KiB, ... 64 MiB
    CHECK(keys.front() == "codec/fp16_encode/65536");
    CHECK(keys[5] == "codec/fp16_encode/67108864");
    // PowerSGD at ranks 1, 4 and 8; rank 4's keys are those of the calibrations that timed it alone.
    CHECK(keys[36] == "codec/powersgd_encode/rank1/65536");
    CHECK(keys[42] == "codec/powersgd_encode/65536");
    CHECK(keys[48] == "codec/powersgd_encode/rank8/65536");
    CHECK(keys.back() == "codec/powersgd_decode/rank8/67108864");

    PlanOptions quick;
    quick.quick = true;
    const auto quick_keys = codec_keys(quick);
    REQUIRE(quick_keys.size() == 12 * 4);  // up to 4 MiB
    CHECK(quick_keys[3] == "codec/fp16_encode/4194304");

    PlanOptions only;
    only.ops = {ComputeOp::codec};
    const auto plan = make_plan(only, two_ranks);
    CHECK(plan.size() == 72);
    CHECK(plan[0].kernel == CodecKernel::fp16_encode);
    CHECK(plan[0].bytes == 65536);
    CHECK(plan[0].rank == 0);
    CHECK(plan[36].kernel == CodecKernel::powersgd_encode);
    CHECK(plan[36].rank == 1);
    CHECK(plan[71].rank == 8);
    CHECK_FALSE(codec_skipped(only));

    PlanOptions gpu = only;
    gpu.gpu = true;
    CHECK(make_plan(gpu, two_ranks).empty());
    CHECK(codec_skipped(gpu));
    gpu.ops = {ComputeOp::gemm};
    CHECK_FALSE(codec_skipped(gpu));  // not asked for: nothing to say
}

TEST_CASE("calibrate::sample_from_json_line: codec samples carry their kernel and top-k settings", "[unit][calibrate]") {
    const auto decode = sample_from_json_line(codec_line("topk_decode", 1 << 20, 2e-3), "s", 1);
    CHECK(decode.op == CalibrationOp{ComputeOp::codec});
    CHECK(decode.kernel == CodecKernel::topk_decode);
    CHECK(decode.bytes == 1 << 20);
    CHECK(decode.ratio == 0.01);
    CHECK(decode.blocks == 8);
    CHECK(decode.device == "cpu");
    CHECK_FALSE(is_network(decode.op));

    const auto cast = sample_from_json_line(codec_line("fp16_decode", 65536, 1e-5), "s", 2);
    CHECK(cast.kernel == CodecKernel::fp16_decode);
    CHECK(cast.ratio == 0);
    CHECK(cast.rank == 0);

    const auto low_rank = sample_from_json_line(codec_line("powersgd_encode", 65536, 1e-4), "s", 5);
    CHECK(low_rank.kernel == CodecKernel::powersgd_encode);
    CHECK(low_rank.rank == 4);
    CHECK_THROWS_WITH(sample_from_json_line(replaced(codec_line("powersgd_decode", 65536, 1e-5), ",\"rank\":4", ""), "s", 6),
                      Catch::Contains("s:6: key 'rank'"));

    CHECK_THROWS_WITH(sample_from_json_line(replaced(codec_line("fp16_encode", 65536, 1e-5), "fp16_encode\",\"time",
                                                     "fp61_encode\",\"time"),
                                            "s", 3),
                      Catch::Contains("s:3: key 'kernel'") && Catch::Contains("did you mean 'fp16_encode'"));
    CHECK_THROWS_WITH(sample_from_json_line(replaced(codec_line("topk_decode", 65536, 1e-5), ",\"blocks\":8", ""), "s", 4),
                      Catch::Contains("s:4: key 'blocks'"));
}

TEST_CASE("calibrate::fit_profile: one codec fit per kernel in the compute section", "[unit][calibrate]") {
    std::vector<Sample> samples;
    auto add = [&samples](const std::string& line) { samples.push_back(sample_from_json_line(line, "test", 1)); };
    for (double bytes : {1e6, 1e7, 1e8})
        add(R"({"key":"m)" + number(bytes) + R"(","op":"memory_bandwidth","time_s":)" + number(bytes / 2e10) +
            R"(,"ranks":2,"nodes":1,"device":"cpu","bytes":)" + number(bytes) + "}");
    const std::vector<std::pair<std::string, std::pair<double, double>>> truth{
        {"fp16_encode", {3e-6, 6e9}}, {"fp16_decode", {2e-6, 1.7e9}}, {"topk_encode", {2e-5, 1.8e8}},
        {"topk_decode", {1e-5, 2.4e9}}, {"powersgd_encode", {4e-5, 3.5e8}}};
    for (const auto& [kernel, model] : truth)
        for (double bytes = 65536; bytes <= 64 * 1024 * 1024; bytes *= 4)
            add(codec_line(kernel, bytes, model.first + bytes / model.second));
    add(codec_line("int8_encode", 65536, 1e-5));  // one size: no slope, left out
    // PowerSGD's encode at a second rank, listed before the first: its own line, after rank 4's.
    std::vector<Sample> rank_eight;
    for (double bytes = 65536; bytes <= 64 * 1024 * 1024; bytes *= 4)
        rank_eight.push_back(sample_from_json_line(codec_line("powersgd_encode", bytes, 5e-5 + bytes / 2.5e8, 8), "test", 1));
    samples.insert(samples.begin(), rank_eight.begin(), rank_eight.end());

    const auto profile = fit_profile(samples, "{}", "codecs");

    REQUIRE(profile.compute);
    const auto& codecs = profile.compute->codecs;
    REQUIRE(codecs.size() == 6);
    CHECK(codecs[0].kernel == CodecKernel::fp16_encode);  // kCodecKernelNames order
    CHECK(codecs[1].kernel == CodecKernel::fp16_decode);
    CHECK(codecs[2].kernel == CodecKernel::topk_encode);
    CHECK(codecs[3].kernel == CodecKernel::topk_decode);
    for (size_t i = 0; i < truth.size(); ++i) {
        INFO(truth[i].first);
        CHECK(codecs[i].fixed_s == Approx(truth[i].second.first).epsilon(1e-6));
        CHECK(codecs[i].bytes_per_second == Approx(truth[i].second.second).epsilon(1e-6));
        CHECK(codecs[i].quality.samples == 6);
        CHECK(codecs[i].quality.max_relative_error < 1e-6);
    }
    // The measured points: per size, the mean of the timed iterations (here one time per sample).
    REQUIRE(codecs[0].measured.size() == 6);
    CHECK(codecs[0].measured.front().first == 65536);
    CHECK(codecs[0].measured.front().second == Approx(3e-6 + 65536 / 6e9).epsilon(1e-12));
    CHECK(codecs[2].ratio == 0.01);
    CHECK(codecs[2].blocks == 0);
    CHECK(codecs[3].blocks == 8);
    CHECK(codecs[4].kernel == CodecKernel::powersgd_encode);
    CHECK(codecs[4].rank == 4);
    CHECK(codecs[5].kernel == CodecKernel::powersgd_encode);
    CHECK(codecs[5].rank == 8);
    CHECK(codecs[5].fixed_s == Approx(5e-5).epsilon(1e-6));
    CHECK(codecs[5].bytes_per_second == Approx(2.5e8).epsilon(1e-6));
    CHECK(codecs[3].rank == 0);
    CHECK(profile.compute->codec_for(CodecKernel::int8_encode) == nullptr);
    CHECK(profile.compute->codec_for(CodecKernel::topk_decode) == &codecs[3]);

    // Two settings of one kernel would make one line of two kernels.
    add(replaced(codec_line("topk_decode", 3 * 65536, 1e-5), "\"blocks\":8", "\"blocks\":4"));
    CHECK_THROWS_WITH(fit_profile(samples, "{}", "mixed"), Catch::Contains("different ratio or blocks"));
}

TEST_CASE("a codec fit gives back its measured times, interpolated, and its model outside them", "[unit][profile]") {
    // Time-shared cores: 64 KiB in a time slice, 1 MiB five times slower per byte than the line says.
    const CodecFit fit{CodecKernel::int8_encode, 0, 1e9, 0, 0, {}, {{65536, 60e-6}, {1048576, 5e-3}}};
    CHECK(fit.seconds(65536) == 60e-6);
    CHECK(fit.seconds(1048576) == 5e-3);
    CHECK(fit.seconds((65536 + 1048576) / 2.0) == Approx((60e-6 + 5e-3) / 2).epsilon(1e-12));
    CHECK(fit.seconds(4e6) == fit.model_seconds(4e6));
    CHECK(fit.model_seconds(4e6) == Approx(4e-3).epsilon(1e-12));
    CHECK(fit.seconds(1000) == Approx(1e-6).epsilon(1e-12));
}

TEST_CASE("powersgd_codec_seconds: linear in the rank between calibrated ranks, c0 + c1 r", "[unit][profile]") {
    // Per fp32 byte, a rank-independent pass c0 and c1 per rank: the fits at ranks 1, 4 and 8 are exact lines.
    constexpr double c0 = 2e-9, c1 = 0.25e-9, bytes = 4e6;
    auto line_at = [&](int rank) {
        return CodecFit{CodecKernel::powersgd_encode, 0, 1 / (c0 + c1 * rank), 0, 0, {}, {}, {}, rank};
    };
    const std::vector<CodecFit> fits{line_at(8), line_at(1), line_at(4),
                                     {CodecKernel::powersgd_decode, 0, 1e9, 0, 0, {}, {}, {}, 4}};
    for (int rank : {1, 2, 3, 4, 6, 8, 16}) {
        CAPTURE(rank);  // between the calibrated ranks and beyond the last: the line itself
        CHECK(*powersgd_codec_seconds(fits, CodecKernel::powersgd_encode, bytes, rank) ==
              Approx(bytes * (c0 + c1 * rank)).epsilon(1e-12));
    }
    // One calibrated rank: scaled by rank / its rank.
    CHECK(*powersgd_codec_seconds(fits, CodecKernel::powersgd_decode, bytes, 2) == Approx(bytes / 1e9 / 2).epsilon(1e-12));
    CHECK_FALSE(powersgd_codec_seconds({line_at(4)}, CodecKernel::powersgd_decode, bytes, 4).has_value());

    // Noisy fits that fall with the rank: interpolated between them, never falling beyond them, never below 0.
    const std::vector<CodecFit> falling{{CodecKernel::powersgd_encode, 0, 1e9, 0, 0, {}, {}, {}, 4},
                                        {CodecKernel::powersgd_encode, 0, 2e9, 0, 0, {}, {}, {}, 8}};
    CHECK(*powersgd_codec_seconds(falling, CodecKernel::powersgd_encode, bytes, 6) == Approx(bytes * 0.75e-9).epsilon(1e-12));
    CHECK(*powersgd_codec_seconds(falling, CodecKernel::powersgd_encode, bytes, 32) == Approx(bytes * 0.5e-9).epsilon(1e-12));
    CHECK(*powersgd_codec_seconds(falling, CodecKernel::powersgd_encode, bytes, 1) == Approx(bytes * 1e-9).epsilon(1e-12));
    const std::vector<CodecFit> steep{{CodecKernel::powersgd_encode, 0, 1e9, 0, 0, {}, {}, {}, 4},
                                      {CodecKernel::powersgd_encode, 0, 0.25e9, 0, 0, {}, {}, {}, 8}};
    CHECK(*powersgd_codec_seconds(steep, CodecKernel::powersgd_encode, bytes, 1) == 0);
}

TEST_CASE("dtsim::profile_from_json: codec fits round-trip and are optional", "[unit][profile]") {
    const auto original = profile_with_codecs();
    const auto text = profile_to_json(original);
    CHECK(text.find("\"launch_overhead_s\"") < text.find("\"codecs\""));
    CHECK(text.find("\"blocks\": 8") != std::string::npos);

    const auto loaded = profile_from_json(text, "p.json");
    REQUIRE(loaded.compute);
    const auto& a = loaded.compute->codecs;
    const auto& b = original.compute->codecs;
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        INFO(to_string(b[i].kernel));
        CHECK(a[i].kernel == b[i].kernel);
        CHECK(a[i].fixed_s == b[i].fixed_s);  // exact: 17 significant digits
        CHECK(a[i].bytes_per_second == b[i].bytes_per_second);
        CHECK(a[i].ratio == b[i].ratio);
        CHECK(a[i].blocks == b[i].blocks);
        CHECK(a[i].rank == b[i].rank);
        CHECK(a[i].quality.samples == b[i].quality.samples);
        CHECK(a[i].quality.r_squared == b[i].quality.r_squared);
        CHECK(a[i].quality.median_relative_error == b[i].quality.median_relative_error);
        CHECK(a[i].quality.max_relative_error == b[i].quality.max_relative_error);
        CHECK(a[i].measured == b[i].measured);
    }
    CHECK(profile_to_json(loaded) == text);

    SECTION("a profile without codec fits has no codecs key and still loads") {
        auto plain = original;
        plain.compute->codecs.clear();
        const auto plain_text = profile_to_json(plain);
        CHECK(plain_text.find("codecs") == std::string::npos);
        const auto reloaded = profile_from_json(plain_text, "old.json");
        REQUIRE(reloaded.compute);
        CHECK(reloaded.compute->codecs.empty());
        CHECK(reloaded.compute->codec_for(CodecKernel::fp16_encode) == nullptr);
        CHECK(reloaded.compute->memory_bytes_per_second == 1e10);
    }
}

TEST_CASE("dtsim::profile_from_json: a bad codec fit names the file, line and key", "[unit][profile]") {
    const auto text = profile_to_json(profile_with_codecs());
    auto check_error = [](const std::string& bad, const std::string& needle, const std::string& key,
                          const std::string& message) {
        const auto expected = "bad.json:" + std::to_string(line_of(bad, needle)) + ": key '" + key + "'";
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"), Catch::Contains(expected) && Catch::Contains(message));
    };
    SECTION("an unknown kernel") {
        const auto bad = replaced(text, "\"int8_decode\"", "\"int8_decodr\"");
        check_error(bad, "int8_decodr", "compute.codecs[1].kernel", "did you mean 'int8_decode'");
    }
    SECTION("a zero rate") {
        const auto bad = replaced(text, "\"bytes_per_second\": 4500000000.0", "\"bytes_per_second\": 0");
        check_error(bad, "\"bytes_per_second\": 0", "compute.codecs[1].bytes_per_second", "expected a fitted per-byte rate from 125");
    }
    SECTION("a negative fixed time") {
        const auto bad = replaced(text, "\"fixed_s\": 2e-06", "\"fixed_s\": -2e-06");
        check_error(bad, "-2e-06", "compute.codecs[0].fixed_s", "");
    }
    SECTION("top-k decode without its block count") {
        const auto bad = replaced(text, "\"blocks\": 8,", "");
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"),
                          Catch::Contains("bad.json:") && Catch::Contains("key 'compute.codecs[3].blocks'") &&
                              Catch::Contains("is missing"));
    }
    SECTION("a rank on a kernel without one, and a powersgd kernel without its rank") {
        const auto bad = replaced(text, "\"kernel\": \"fp16_encode\",", "\"kernel\": \"fp16_encode\", \"rank\": 2,");
        check_error(bad, "\"rank\": 2", "compute.codecs[0].rank", "only the powersgd kernels");
        CHECK_THROWS_WITH(profile_from_json(replaced(text, "\"rank\": 4,", ""), "bad.json"),
                          Catch::Contains("key 'compute.codecs[4].rank'") && Catch::Contains("is missing"));
    }
    SECTION("a ratio on a kernel without one") {
        const auto bad = replaced(text, "\"kernel\": \"fp16_encode\",", "\"kernel\": \"fp16_encode\", \"ratio\": 0.5,");
        check_error(bad, "\"ratio\": 0.5", "compute.codecs[0].ratio", "only the topk kernels");
    }
    SECTION("a kernel twice, or a PowerSGD kernel twice at one rank") {
        const auto bad = replaced(text, "\"int8_decode\"", "\"fp16_encode\"");
        check_error(bad, "\"fp16_encode\",\n        \"fixed_s\": 0", "compute.codecs[1].kernel", "appears twice");
        CHECK_THROWS_WITH(profile_from_json(replaced(text, "\"rank\": 8", "\"rank\": 4"), "bad.json"),
                          Catch::Contains("key 'compute.codecs[5].kernel'") && Catch::Contains("appears twice in codecs at rank 4"));
    }
    SECTION("codecs not a list") {
        const auto at = text.find("\"codecs\": [");
        REQUIRE(at != std::string::npos);
        const auto bad = text.substr(0, at) + "\"codecs\": 3\n    }\n}\n";
        CHECK_THROWS_WITH(profile_from_json(bad, "bad.json"), Catch::Contains("key 'compute.codecs'"));
    }
}

}  // namespace codec_fit_test
