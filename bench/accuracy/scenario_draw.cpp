#include "scenario_draw.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>

namespace dtsim::bench {
namespace {

// Draws from mt19937_64's bits: its sequence is fixed by the standard, the std distributions' algorithms
// are not, so these give the same scenarios with any standard library.
class Draws {
public:
    explicit Draws(std::uint64_t seed) : engine_(seed) {}
    double uniform(double low, double high) {
        return low + (high - low) * static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    }
    int integer(int low, int high) {
        return low + static_cast<int>((engine_() >> 11) % static_cast<std::uint64_t>(high - low + 1));
    }
    bool chance(double probability) { return uniform(0, 1) < probability; }
    template <class T>
    const T& pick(const std::vector<T>& values) {
        return values[static_cast<std::size_t>(integer(0, static_cast<int>(values.size()) - 1))];
    }

private:
    std::mt19937_64 engine_;
};

// The strategies dtsim-runtime measures (runtime/src/measure/measurability.cpp): every all-reduce algorithm,
// dedicated parameter servers; compression with all-reduce only, int8 with ring only.
enum class Kind { ring, tree, halving_doubling, direct, hierarchical, parameter_server };
enum class Compression { none, fp16, int8, topk, powersgd };

const char* algorithm_name(Kind kind) {
    switch (kind) {
        case Kind::ring: return "ring";
        case Kind::tree: return "tree";
        case Kind::halving_doubling: return "halving-doubling";
        case Kind::direct: return "direct";
        case Kind::hierarchical: return "hierarchical";
        case Kind::parameter_server: break;
    }
    throw std::logic_error("a parameter server has no all-reduce algorithm");
}

const char* compression_name(Compression compression) {
    switch (compression) {
        case Compression::none: return "none";
        case Compression::fp16: return "fp16";
        case Compression::int8: return "int8";
        case Compression::topk: return "topk";
        case Compression::powersgd: return "powersgd";
    }
    return "none";
}

// What one covering entry fixes; everything else is drawn.
struct Cover {
    std::optional<Kind> kind = {};
    std::optional<std::string> sync = {};
    std::optional<int> servers = {};
    std::optional<Compression> compression = {};
    bool straggler = false;
    std::optional<bool> overlap = {};
};

std::array<Cover, kMinimumDraw> covering_entries() {
    const auto ps = Kind::parameter_server;
    return {{
        {.kind = Kind::ring},
        {.kind = Kind::tree},
        {.kind = Kind::halving_doubling},
        {.kind = Kind::direct},
        {.kind = Kind::hierarchical},
        {.kind = ps, .sync = "sync", .servers = 1},
        {.kind = ps, .sync = "sync", .servers = 2},
        {.kind = ps, .sync = "async", .servers = 1},
        {.kind = ps, .sync = "async", .servers = 2},
        {.kind = ps, .sync = "ssp", .servers = 1},
        {.kind = ps, .sync = "ssp", .servers = 2},
        {.kind = Kind::ring, .compression = Compression::fp16},
        {.kind = Kind::ring, .compression = Compression::int8},
        {.compression = Compression::topk},
        {.compression = Compression::powersgd},
        {.kind = Kind::ring, .compression = Compression::none, .straggler = true},
        {.kind = ps, .sync = "sync", .straggler = true},
        {.kind = Kind::ring, .compression = Compression::none, .overlap = false},
    }};
}

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

DrawnScenario draw_one(const Cover& cover, Draws& draws, std::uint64_t seed, int number) {
    const std::vector<Kind> allreduce_kinds{Kind::ring, Kind::tree, Kind::halving_doubling, Kind::direct, Kind::hierarchical};
    Kind kind = cover.kind ? *cover.kind
                : cover.compression ? draws.pick(allreduce_kinds)
                : draws.chance(0.4) ? Kind::parameter_server
                                    : draws.pick(allreduce_kinds);
    const bool ps = kind == Kind::parameter_server;

    Compression compression = Compression::none;
    if (cover.compression) {
        compression = *cover.compression;
    } else if (!ps) {
        const double r = draws.uniform(0, 1);
        compression = r < 0.55 ? Compression::none : r < 0.65 ? Compression::fp16 : r < 0.75 ? Compression::int8
                      : r < 0.9 ? Compression::topk : Compression::powersgd;
    }
    if (compression == Compression::int8) kind = Kind::ring;

    // Layout: 1 rank per host on up to 5 hosts, or 2 hosts × 2 ranks (the hierarchical all-reduce's).
    int nodes = 0, gpus_per_node = 1, servers = 0;
    if (ps) {
        servers = cover.servers ? *cover.servers : draws.integer(1, 2);
        nodes = draws.integer(2, 5 - servers);
    } else if (kind == Kind::hierarchical || draws.chance(0.2)) {
        nodes = 2, gpus_per_node = 2;
    } else {
        nodes = draws.integer(2, 5);
    }
    const int workers = nodes * gpus_per_node;
    const int ranks = workers + servers;

    const double gradient_mb = std::round(std::exp(draws.uniform(std::log(1.0), std::log(40.0))) * 10) / 10;
    std::string bucket = draws.pick(std::vector<std::string>{"512KB", "1MB", "2MB", "4MB", "8MB", "whole"});
    if (bucket == "whole") bucket = format("%.1fMB", gradient_mb);
    const bool overlap = cover.overlap ? *cover.overlap : draws.chance(0.7);
    const int forward_ms = draws.integer(10, 60);
    const int backward_ms = static_cast<int>(std::lround(forward_ms * draws.uniform(1.5, 2.5)));
    const int layers = draws.integer(4, 16);
    const std::string sync = ps ? (cover.sync ? *cover.sync : draws.pick(std::vector<std::string>{"sync", "async", "ssp"})) : "";
    const int staleness = sync == "ssp" ? draws.integer(0, 3) : 0;
    const bool straggler = cover.straggler || draws.chance(0.25);
    const int slow_rank = straggler ? draws.integer(0, workers - 1) : 0;
    const double slowdown = straggler ? std::round(draws.uniform(1.2, 2.0) * 20) / 20 : 1;
    const double topk_ratio = draws.pick(std::vector<double>{0.001, 0.01, 0.05});
    const int powersgd_rank = draws.pick(std::vector<int>{2, 4, 8});

    std::ostringstream text;
    text << "# testbed: " << (gpus_per_node == 2 ? "--per-host 2 " : "") << "--np " << ranks << '\n'
         << "name: accuracy-draw-" << seed << '-' << number << '\n'
         << "profile: " << (gpus_per_node == 2 ? "@PROFILE_2@" : "@PROFILE_1@") << '\n'
         << "cluster: {nodes: " << nodes << ", gpus_per_node: " << gpus_per_node << ", gpu: cpu}\n"
         << "model: {gradient_bytes: " << format("%.1fMB", gradient_mb) << ", forward_time: " << forward_ms
         << "ms, backward_time: " << backward_ms << "ms, batch_per_gpu: 32, layers: " << layers << "}\n"
         << "training:\n  iterations: 10\n";
    std::string name;
    if (ps) {
        text << "  strategy: {kind: parameter-server, servers: " << servers << ", placement: dedicated, sync: " << sync;
        if (sync == "ssp") text << ", staleness: " << staleness;
        text << ", bucket: " << bucket << ", overlap: " << (overlap ? "true" : "false") << "}\n";
        name = "ps-" + sync + "-" + std::to_string(servers) + (servers == 1 ? "-server" : "-servers");
    } else {
        text << "  strategy: {kind: allreduce, algorithm: " << algorithm_name(kind) << ", bucket: " << bucket
             << ", overlap: " << (overlap ? "true" : "false") << "}\n";
        name = algorithm_name(kind);
    }
    if (compression != Compression::none) {
        text << "  compression: {kind: " << compression_name(compression);
        if (compression == Compression::topk) text << ", ratio: " << topk_ratio;
        if (compression == Compression::powersgd) text << ", rank: " << powersgd_rank;
        text << "}\n";
        name += std::string("-") + compression_name(compression);
    }
    if (straggler) {
        text << "  stragglers:\n    slowdown: [{ranks: [" << slow_rank << "], factor: " << slowdown << "}]\n";
        name += "-straggler";
    }
    if (!overlap) name += "-no-overlap";
    char number_text[16];
    std::snprintf(number_text, sizeof number_text, "%02d", number);
    return {std::string(number_text) + "-" + name + ".yaml", text.str()};
}

}  // namespace

std::vector<DrawnScenario> draw_accuracy_scenarios(std::uint64_t seed, int count) {
    if (count < kMinimumDraw)
        throw std::invalid_argument("a draw has at least " + std::to_string(kMinimumDraw) +
                                    " scenarios (the ones that cover every strategy); got " + std::to_string(count));
    Draws draws(seed);
    const auto covering = covering_entries();
    std::vector<DrawnScenario> drawn;
    for (int i = 0; i < count; ++i) {
        const Cover cover = i < kMinimumDraw ? covering[static_cast<std::size_t>(i)] : Cover{};
        drawn.push_back(draw_one(cover, draws, seed, i + 1));
    }
    return drawn;
}

}  // namespace dtsim::bench
