// `dtsim fit --validate` replays measured collectives from point-to-point fits. Fed "measurements" that
// are the algorithms' closed forms under a known point-to-point model, it must predict them exactly.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>

#include "dtsim/profile.hpp"
#include "test_support.hpp"

namespace cross_validation_test {

using namespace dtsim;

namespace {

constexpr int kRanks = 4;

void write(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
}

std::string sample_line(const std::string& op, double bytes, double seconds, bool across_nodes) {
    static int id = 0;
    return nlohmann::json{{"key", op + std::to_string(++id)},
                          {"op", op},
                          {"mode", "latency"},
                          {"link_class", across_nodes ? "inter_node" : "intra_node"},
                          {"dtype", "float32"},
                          {"bytes", bytes},
                          {"ranks", kRanks},
                          {"nodes", across_nodes ? kRanks : 1},
                          {"time_s", seconds}}
        .dump();
}

// Writes the calibration folder (4 ranks on one node, or one per node) and profile, runs the validation,
// returns its rows.
nlohmann::json validate(const test::TempDir& dir, const Profile& profile,
                        const std::vector<std::pair<std::string, std::function<double(double)>>>& closed_forms,
                        bool across_nodes = false) {
    write(dir.file("profile.json"), profile_to_json(profile));
    write(dir.file("environment.json"), across_nodes ? R"({"ranks": 4, "nodes": 4, "node_of_rank": [0, 1, 2, 3]})"
                                                     : R"({"ranks": 4, "nodes": 1, "node_of_rank": [0, 0, 0, 0]})");
    std::string lines;
    for (const auto& [op, time_of] : closed_forms)
        for (double bytes : {4096.0, 65536.0, 1048576.0, 16777216.0})
            lines += sample_line(op, bytes, time_of(bytes), across_nodes) + "\n";
    write(dir.file("samples.jsonl"), lines);
    const auto result = test::run_dtsim(
        {"fit", "--validate", dir.path().string(), dir.file("profile.json"), "--json", dir.file("v.json"), "--progress-lines"});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    const auto replayed = std::to_string(4 * closed_forms.size());
    CHECK_THAT(result.output, Catch::Contains("median |err|") &&
                                  Catch::Contains("fit --validate: [" + replayed + "/" + replayed + "] collectives, "));
    std::ifstream in(dir.file("v.json"));
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("cross-validation reproduces the closed forms of each collective", "[integration][fit]") {
    const double alpha = 10e-6, beta = 1e9;
    auto t = [&](double bytes) { return alpha + bytes / beta; };
    const double n = kRanks;
    test::TempDir dir;
    const auto rows = validate(dir, test::pingpong_profile("closed-form", LinkClass::intra_node, {{0, alpha, beta}}),
                               {{"allreduce", [&](double s) { return 2 * (n - 1) * t(s / n); }},
                                {"allgather", [&](double s) { return (n - 1) * t(s / n); }},
                                {"reducescatter", [&](double s) { return (n - 1) * t(s / n); }},
                                // linear: every share at once, sharing the sender's link
                                {"alltoall", [&](double s) { return alpha + (n - 1) * (s / n) / beta; }},
                                // binomial tree of 4: the root feeds ranks 1 and 2 at once over its own link
                                // (half the bandwidth each), then rank 2 feeds rank 3.
                                {"broadcast", [&](double s) { return 2 * alpha + 3 * s / beta; }}});
    REQUIRE(rows.size() == 20);
    for (const auto& row : rows) {
        CAPTURE(row.dump());
        CHECK(std::abs(row.at("relative_error").get<double>()) < 1e-6);
    }
}

TEST_CASE("cross-validation replays the all-to-all on perfectly shared ports, whatever the profile's incast",
          "[integration][fit][incast]") {
    // The profile's all-to-all over 4 nodes kept half a perfectly shared port: its incast comes from the
    // very samples replayed, so the replay leaves it out and its error stays the point-to-point model's.
    const double alpha = 10e-6, beta = 1e8, n = kRanks;
    auto profile = test::pingpong_profile("closed-form", LinkClass::inter_node, {{0, alpha, beta}});
    NetworkFit alltoall = profile.network.front();
    alltoall.op = NetworkOp::alltoall;
    alltoall.ranks = kRanks;
    alltoall.nodes = kRanks;
    alltoall.model.segments = {{0, alpha, beta * n / (n - 1) / 2}};
    profile.network.push_back(alltoall);
    test::TempDir dir;
    const auto rows = validate(dir, profile, {{"alltoall", [&](double s) { return alpha + (n - 1) * (s / n) / beta; }}}, true);
    REQUIRE(rows.size() == 4);
    for (const auto& row : rows) {
        CAPTURE(row.dump());
        CHECK(std::abs(row.at("relative_error").get<double>()) < 1e-6);
    }
}

TEST_CASE("per-message overheads of a piecewise fit reach every ring step", "[integration][fit]") {
    // Small messages are cheap and slow (eager); large ones pay a rendezvous but stream faster.
    const std::vector<AlphaBetaSegment> segments{{0, 5e-6, 0.5e9}, {65536, 30e-6, 1e9}};
    const auto profile = test::pingpong_profile("closed-form", LinkClass::intra_node, segments);
    const PiecewiseAlphaBeta model{segments};
    const double n = kRanks;
    test::TempDir dir;
    const auto rows = validate(dir, profile,
                               {{"allreduce", [&](double s) { return 2 * (n - 1) * model.seconds(s / n); }},
                                {"allgather", [&](double s) { return (n - 1) * model.seconds(s / n); }}});
    REQUIRE(rows.size() == 8);
    for (const auto& row : rows) {
        CAPTURE(row.dump());
        CHECK(std::abs(row.at("relative_error").get<double>()) < 1e-6);
    }
}

TEST_CASE("a ring's first step costs the one-at-a-time fit, its others the back-to-back one, faster than the link too",
          "[integration][fit]") {
    // Back to back, mid sizes run faster than the last segment; one at a time, a burst makes every size
    // faster still, down to the link's latency.
    const PiecewiseAlphaBeta steady{{{0, 10e-6, 1e9}, {65536, 0, 0.8e9}}};
    const PiecewiseAlphaBeta idle{{{0, 5e-6, 2e9}}};
    Profile profile = test::pingpong_profile("closed-form", LinkClass::intra_node, {});
    profile.network.clear();
    for (const auto& [mode, model] : {std::pair{TimingMode::throughput, steady}, std::pair{TimingMode::latency, idle}}) {
        NetworkFit fit;
        fit.op = NetworkOp::sendrecv;
        fit.mode = mode;
        fit.link_class = LinkClass::intra_node;
        fit.ranks = kRanks;
        fit.model = model;
        profile.network.push_back(fit);
    }
    const double n = kRanks, latency = 10e-6;
    auto pass = [&](double chunk, int steps) {
        return std::max(idle.seconds(chunk), latency) + (steps - 1) * std::max(steady.seconds(chunk), latency);
    };
    test::TempDir dir;
    const auto rows = validate(dir, profile,
                               {{"allreduce", [&](double s) { return pass(s / n, 2 * (kRanks - 1)); }},
                                {"allgather", [&](double s) { return pass(s / n, kRanks - 1); }}});
    REQUIRE(rows.size() == 8);
    for (const auto& row : rows) {
        CAPTURE(row.dump());
        CHECK(std::abs(row.at("relative_error").get<double>()) < 1e-4);  // a flow carries whole bytes: < 1 ns a step
    }
}

}  // namespace cross_validation_test
