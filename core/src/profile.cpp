#include "dtsim/profile.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"

namespace dtsim {

const AlphaBetaSegment& PiecewiseAlphaBeta::segment_for(double bytes) const {
    if (segments.empty()) throw std::logic_error("PiecewiseAlphaBeta::segment_for: the model has no segments");
    // The last segment whose min_bytes is <= bytes; sizes below the first breakpoint use the first segment.
    auto after = std::upper_bound(segments.begin(), segments.end(), bytes,
                                  [](double b, const AlphaBetaSegment& s) { return b < s.min_bytes; });
    return after == segments.begin() ? segments.front() : *std::prev(after);
}

double PiecewiseAlphaBeta::seconds(double bytes) const {
    const auto& segment = segment_for(bytes);
    return segment.alpha_s + bytes / segment.bytes_per_second;
}

const GemmFit* ComputeProfile::gemm_for(Precision precision) const {
    for (const auto& fit : gemm)
        if (fit.precision == precision) return &fit;
    return nullptr;
}

const CodecFit* find_codec_fit(const std::vector<CodecFit>& fits, CodecKernel kernel) {
    for (const auto& fit : fits)
        if (fit.kernel == kernel) return &fit;
    return nullptr;
}

const CodecFit* ComputeProfile::codec_for(CodecKernel kernel) const { return find_codec_fit(codecs, kernel); }

std::optional<double> powersgd_codec_seconds(const std::vector<CodecFit>& fits, CodecKernel kernel, double fp32_bytes, int rank) {
    std::vector<const CodecFit*> by_rank;
    for (const auto& fit : fits)
        if (fit.kernel == kernel) by_rank.push_back(&fit);
    if (by_rank.empty()) return std::nullopt;
    std::sort(by_rank.begin(), by_rank.end(), [](const CodecFit* a, const CodecFit* b) { return a->rank < b->rank; });
    if (by_rank.size() == 1) return by_rank[0]->seconds(fp32_bytes) * rank / by_rank[0]->rank;
    // The segment of calibrated ranks around `rank`, or the nearest one outside them.
    size_t upper = 1;
    while (upper + 1 < by_rank.size() && by_rank[upper]->rank < rank) ++upper;
    const CodecFit& lo = *by_rank[upper - 1];
    const CodecFit& hi = *by_rank[upper];
    const double t_lo = lo.seconds(fp32_bytes), t_hi = hi.seconds(fp32_bytes);
    const double slope = (t_hi - t_lo) / (hi.rank - lo.rank);
    if (rank > hi.rank) return t_hi + std::max(slope, 0.0) * (rank - hi.rank);
    if (rank < lo.rank) return std::max(0.0, t_lo - std::max(slope, 0.0) * (lo.rank - rank));
    return t_lo + slope * (rank - lo.rank);
}

double LinkCost::fitted_s(double bytes, bool first_of_pass) const {
    return (first_of_pass && from_idle ? *from_idle : one_way).seconds(bytes);
}

MessageCost LinkCost::message_cost(double bytes, bool first_of_pass) const { return carrying(fitted_s(bytes, first_of_pass), bytes); }

MessageCost LinkCost::carrying(double fitted, double bytes) const {
    const double beyond = fitted - (latency_s + bytes / bytes_per_second);
    if (beyond >= 0) return {beyond, bytes};
    return {0, std::max(0.0, (fitted - latency_s) * bytes_per_second)};
}

std::optional<double> interpolate_measured(const std::vector<std::pair<double, double>>& measured, double bytes) {
    const auto after = std::lower_bound(measured.begin(), measured.end(), std::make_pair(bytes, 0.0));
    if (measured.empty() || after == measured.end() || (after == measured.begin() && after->first > bytes)) return std::nullopt;
    if (after->first == bytes || after == measured.begin()) return after->second;
    const auto before = std::prev(after);
    const double share = (bytes - before->first) / (after->first - before->first);
    return before->second + share * (after->second - before->second);
}

double NetworkFit::seconds(double bytes) const { return interpolate_measured(measured, bytes).value_or(model.seconds(bytes)); }

double CodecFit::seconds(double fp32_bytes) const {
    return interpolate_measured(measured, fp32_bytes).value_or(model_seconds(fp32_bytes));
}

const NetworkFit* Profile::point_to_point(LinkClass link_class, int ring_members) const {
    // Preference: the ring exchange back to back (every rank of the ring sending and receiving at once,
    // step after step, as in a collective), then one exchange at a time, then ping-pongs. Among rings, the
    // one of `ring_members` ranks, then the largest.
    auto rank = [](const NetworkFit& fit) {
        if (fit.op == NetworkOp::sendrecv) return fit.mode == TimingMode::throughput ? 0 : 1;
        if (fit.op == NetworkOp::pingpong) return fit.mode == TimingMode::latency ? 2 : 3;
        return 4;
    };
    auto better = [&](const NetworkFit& a, const NetworkFit& b) {
        if (rank(a) != rank(b)) return rank(a) < rank(b);
        if ((a.ranks == ring_members) != (b.ranks == ring_members)) return a.ranks == ring_members;
        return a.ranks > b.ranks;
    };
    const NetworkFit* found = nullptr;
    for (const auto& fit : network)
        if (fit.link_class == link_class && rank(fit) < 4 && (!found || better(fit, *found))) found = &fit;
    return found;
}

double PairExchange::extra_s(double bytes) const { return std::max(0.0, exchange.seconds(bytes) - ring_step.seconds(bytes)); }

std::optional<PairExchange> Profile::pair_exchange(LinkClass link_class) const {
    const NetworkFit *exchange = nullptr, *ring_step = nullptr;
    for (const auto& fit : network) {
        if (fit.link_class != link_class || fit.mode != TimingMode::latency) continue;
        if (fit.op == NetworkOp::exchange) exchange = &fit;
        if (fit.op == NetworkOp::sendrecv && fit.ranks > 2 && (!ring_step || fit.ranks > ring_step->ranks)) ring_step = &fit;
    }
    if (!exchange || !ring_step) return std::nullopt;
    return PairExchange{*exchange, *ring_step};
}

namespace {

// The fit of `op` in `mode` for the class timed with `ranks` ranks, if it has segments.
const NetworkFit* find_fit(const std::vector<NetworkFit>& network, LinkClass link_class, NetworkOp op, TimingMode mode,
                           int ranks) {
    for (const auto& fit : network)
        if (fit.link_class == link_class && fit.op == op && fit.mode == mode && fit.ranks == ranks && !fit.model.segments.empty())
            return &fit;
    return nullptr;
}

// The link cost of the point-to-point fit `fit` (see LinkCost), if it has segments.
std::optional<LinkCost> cost_of(const std::vector<NetworkFit>& network, const NetworkFit& fit) {
    if (fit.model.segments.empty()) return std::nullopt;
    LinkCost cost{fit.model.segments.front().alpha_s, fit.model.segments.back().bytes_per_second, fit.model, std::nullopt};
    // A back-to-back fit leaves a pass's first step to the same operation timed one at a time.
    if (fit.mode == TimingMode::throughput)
        if (const NetworkFit* one_at_a_time = find_fit(network, fit.link_class, fit.op, TimingMode::latency, fit.ranks))
            cost.from_idle = one_at_a_time->model;
    return cost;
}

}  // namespace

std::optional<LinkCost> Profile::link_cost(LinkClass link_class, int ring_members) const {
    const NetworkFit* fit = point_to_point(link_class, ring_members);
    return fit ? cost_of(network, *fit) : std::nullopt;
}

namespace {

// Twice a ping-pong fit's one-way time at its smallest calibrated size (its model's at 0 bytes where it kept no
// measured points: datasheets), if there is the fit.
std::optional<double> round_trip_s(const NetworkFit* ping_pong) {
    if (!ping_pong) return std::nullopt;
    return 2 * (ping_pong->measured.empty() ? ping_pong->model.seconds(0) : ping_pong->measured.front().second);
}

}  // namespace

// The ping-pong's two ranks; the loaded one's third streams to the second (calibrate/plan.cpp).
std::optional<double> Profile::loaded_round_trip_s() const {
    return round_trip_s(find_fit(network, LinkClass::inter_node, NetworkOp::loaded_pingpong, TimingMode::latency, 3));
}

std::optional<double> Profile::idle_round_trip_s() const {
    return round_trip_s(find_fit(network, LinkClass::inter_node, NetworkOp::pingpong, TimingMode::latency, 2));
}

std::map<int, LinkCost> Profile::ring_step_costs(LinkClass link_class) const {
    std::map<int, LinkCost> out;
    for (const auto& fit : network) {
        if (fit.link_class != link_class || fit.op != NetworkOp::sendrecv || out.count(fit.ranks)) continue;
        // The ring of this size, where the preferred fit for it is one timed with as many ranks.
        const NetworkFit* chosen = point_to_point(link_class, fit.ranks);
        if (chosen->ranks != fit.ranks) continue;
        if (auto cost = cost_of(network, *chosen)) out.emplace(fit.ranks, *cost);
    }
    return out;
}

namespace {

using Json = nlohmann::ordered_json;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

Json quality_to_json(const FitQuality& quality) {
    Json j;
    j["samples"] = quality.samples;
    j["r_squared"] = quality.r_squared;
    j["median_relative_error"] = quality.median_relative_error;
    j["max_relative_error"] = quality.max_relative_error;
    return j;
}

// [[bytes, seconds], ...], or [[bytes, seconds, standard error], ...] where the errors were kept.
Json measured_to_json(const std::vector<std::pair<double, double>>& points, const std::vector<double>& errors_s) {
    Json out = Json::array();
    for (size_t i = 0; i < points.size(); ++i) {
        out.push_back(Json::array({points[i].first, points[i].second}));
        if (errors_s.size() == points.size()) out.back().push_back(errors_s[i]);
    }
    return out;
}

Json network_fit_to_json(const NetworkFit& fit) {
    Json segments = Json::array();
    for (const auto& segment : fit.model.segments) {
        Json s;
        s["min_bytes"] = segment.min_bytes;
        s["alpha_s"] = segment.alpha_s;
        s["bytes_per_second"] = segment.bytes_per_second;
        segments.push_back(std::move(s));
    }
    Json j;
    j["op"] = std::string(to_string(fit.op));
    j["mode"] = std::string(to_string(fit.mode));
    j["link_class"] = std::string(to_string(fit.link_class));
    j["ranks"] = fit.ranks;
    j["nodes"] = fit.nodes;
    j["segments"] = std::move(segments);
    j["quality"] = quality_to_json(fit.quality);
    if (!fit.measured.empty()) j["measured"] = measured_to_json(fit.measured, fit.measured_error_s);
    if (fit.stalls > 0) j["stalls"] = fit.stalls;
    return j;
}

Json compute_to_json(const ComputeProfile& compute) {
    Json gemm = Json::array();
    for (const auto& fit : compute.gemm) {
        Json g;
        g["precision"] = std::string(to_string(fit.precision));
        g["fixed_s"] = fit.fixed_s;
        g["flops_per_second"] = fit.flops_per_second;
        g["quality"] = quality_to_json(fit.quality);
        gemm.push_back(std::move(g));
    }
    Json j;
    j["device"] = compute.device;
    j["gemm"] = std::move(gemm);
    j["memory_bytes_per_second"] = compute.memory_bytes_per_second;
    j["memory_quality"] = quality_to_json(compute.memory_quality);
    j["launch_overhead_s"] = compute.launch_overhead_s;
    if (compute.shared_cores) j["shared_cores"] = {{"cores", compute.shared_cores->cores}, {"ranks", compute.shared_cores->ranks}};
    if (compute.codecs.empty()) return j;  // optional: profiles without codec fits stay as they were
    Json codecs = Json::array();
    for (const auto& fit : compute.codecs) {
        Json c;
        c["kernel"] = std::string(to_string(fit.kernel));
        c["fixed_s"] = fit.fixed_s;
        c["bytes_per_second"] = fit.bytes_per_second;
        if (is_topk(fit.kernel)) c["ratio"] = fit.ratio;
        if (fit.kernel == CodecKernel::topk_decode) c["blocks"] = fit.blocks;
        if (is_powersgd(fit.kernel)) c["rank"] = fit.rank;
        c["quality"] = quality_to_json(fit.quality);
        if (!fit.measured.empty()) c["measured"] = measured_to_json(fit.measured, fit.measured_error_s);
        codecs.push_back(std::move(c));
    }
    j["codecs"] = std::move(codecs);
    return j;
}

Json environment_object(const std::string& environment_json) {
    Json environment = Json::parse(environment_json, nullptr, false);
    if (!environment.is_object())
        throw std::invalid_argument("profile environment_json is not a JSON object: " + environment_json);
    return environment;
}

// yaml-cpp read the JSON, so scalars come back as text: quoted ones (tag "!") are strings, plain ones are
// JSON literals (numbers, true, false).
Json yaml_to_json(const YAML::Node& node) {
    switch (node.Type()) {
    case YAML::NodeType::Map: {
        Json object = Json::object();
        for (const auto& entry : node) object[entry.first.Scalar()] = yaml_to_json(entry.second);
        return object;
    }
    case YAML::NodeType::Sequence: {
        Json array = Json::array();
        for (const auto& item : node) array.push_back(yaml_to_json(item));
        return array;
    }
    case YAML::NodeType::Scalar: {
        if (node.Tag() == "!") return node.Scalar();
        Json literal = Json::parse(node.Scalar(), nullptr, false);
        return literal.is_discarded() ? Json(node.Scalar()) : literal;
    }
    default: return nullptr;
    }
}

int count(const ConfigNode& node, std::string_view key, int min_value) {
    return static_cast<int>(node.integer(key, min_value, INT_MAX));
}

double non_negative(const ConfigNode& node, std::string_view key) { return node.number(key, 0, kInfinity); }

std::string optional_text(const ConfigNode& node, std::string_view key) {
    if (!node.has(key)) return "";
    const auto value = node.yaml()[std::string(key)];
    if (!value.IsScalar()) node.fail(key, "expected a text value");
    return value.Scalar();
}

FitQuality quality_from(const ConfigNode& node) {
    node.require_map_with_keys({"samples", "r_squared", "median_relative_error", "max_relative_error"});
    FitQuality quality;
    quality.samples = count(node, "samples", 0);
    quality.r_squared = node.number("r_squared", -kInfinity, 1);
    quality.median_relative_error = non_negative(node, "median_relative_error");
    quality.max_relative_error = non_negative(node, "max_relative_error");
    return quality;
}

PiecewiseAlphaBeta model_from(const ConfigNode& list) {
    PiecewiseAlphaBeta model;
    for (const auto& node : list.sequence()) {
        node.require_map_with_keys({"min_bytes", "alpha_s", "bytes_per_second"});
        AlphaBetaSegment segment;
        segment.min_bytes = node.quantity("min_bytes", Quantity::size);
        if (model.segments.empty() && segment.min_bytes != 0)
            node.fail("min_bytes", "expected 0 for the first segment, got " + node.yaml()["min_bytes"].Scalar());
        if (!model.segments.empty() && segment.min_bytes <= model.segments.back().min_bytes)
            node.fail("min_bytes", "expected more than the previous segment's min_bytes (segments sorted by size)");
        segment.bytes_per_second = node.quantity("bytes_per_second", Quantity::fitted_bandwidth);
        // A later segment may start from a negative intercept (see fit_piecewise_alpha_beta), but its times
        // must be positive from its first size on.
        if (model.segments.empty()) {
            segment.alpha_s = node.quantity("alpha_s", Quantity::latency);
        } else {
            const double bound = range_of(Quantity::latency).max;
            segment.alpha_s = node.number("alpha_s", -bound, bound);
            if (!(segment.alpha_s + segment.min_bytes / segment.bytes_per_second > 0))
                node.fail("alpha_s", "expected alpha_s + min_bytes / bytes_per_second > 0 (a positive time at the "
                                     "segment's first size)");
        }
        model.segments.push_back(segment);
    }
    if (model.segments.empty()) list.fail("", "expected at least one segment");
    return model;
}

// [[bytes, seconds], ...] with sizes rising and positive times, each within its range; each may add its
// standard error (all or none).
void measured_from(const ConfigNode& list, std::vector<std::pair<double, double>>& points, std::vector<double>& errors_s) {
    const std::string expected =
        "expected [bytes, seconds] or [bytes, seconds, standard error] items (all alike) with positive times, errors "
        "of 0 or more and sizes rising";
    const auto items = list.sequence();
    for (const auto& item : items) {
        const auto& point = item.yaml();
        double bytes = 0, seconds = 0, error = 0;
        const bool with_error = point.IsSequence() && point.size() == 3;
        if (!point.IsSequence() || (point.size() != 2 && !with_error) || with_error != (items.front().yaml().size() == 3) ||
            !YAML::convert<double>::decode(point[0], bytes) || !YAML::convert<double>::decode(point[1], seconds) ||
            (with_error && (!YAML::convert<double>::decode(point[2], error) || !(error >= 0) || !std::isfinite(error))) ||
            !(bytes >= 0) || !(seconds > 0) || (!points.empty() && bytes <= points.back().first))
            item.fail("", expected);
        if (const auto range = out_of_range(Quantity::size, bytes))
            item.fail("", *range + " for the size of each [bytes, seconds] pair, got " + point[0].Scalar());
        if (const auto range = out_of_range(Quantity::duration, seconds))
            item.fail("", *range + " for the time of each [bytes, seconds] pair, got " + point[1].Scalar());
        points.emplace_back(bytes, seconds);
        if (with_error) errors_s.push_back(error);
    }
}

NetworkFit network_fit_from(const ConfigNode& node) {
    node.require_map_with_keys({"op", "mode", "link_class", "ranks", "nodes", "segments", "quality", "measured", "stalls"});
    NetworkFit fit;
    fit.op = node.choice("op", kNetworkOpNames);
    fit.mode = node.choice("mode", kTimingModeNames);
    fit.link_class = node.choice("link_class", kLinkClassNames);
    fit.ranks = count(node, "ranks", 2);
    fit.nodes = count(node, "nodes", 1);
    fit.model = model_from(node.child("segments"));
    fit.quality = quality_from(node.child("quality"));
    if (node.has("measured")) measured_from(node.child("measured"), fit.measured, fit.measured_error_s);
    if (node.has("stalls")) fit.stalls = count(node, "stalls", 0);
    return fit;
}

GemmFit gemm_fit_from(const ConfigNode& node) {
    node.require_map_with_keys({"precision", "fixed_s", "flops_per_second", "quality"});
    GemmFit fit;
    fit.precision = *precision_from_string(node.choice("precision", {"fp32", "tf32", "fp16", "bf16"}));
    fit.fixed_s = node.quantity("fixed_s", Quantity::latency);
    fit.flops_per_second = node.quantity("flops_per_second", Quantity::flop_rate);
    fit.quality = quality_from(node.child("quality"));
    return fit;
}

CodecFit codec_fit_from(const ConfigNode& node) {
    node.require_map_with_keys({"kernel", "fixed_s", "bytes_per_second", "ratio", "blocks", "rank", "quality", "measured"});
    CodecFit fit;
    fit.kernel = node.choice("kernel", kCodecKernelNames);
    fit.fixed_s = node.quantity("fixed_s", Quantity::latency);
    fit.bytes_per_second = node.quantity("bytes_per_second", Quantity::fitted_bandwidth);
    // The top-k kernels' cost depends on how much is kept and how many blocks are summed: say what was measured.
    if (is_topk(fit.kernel)) {
        fit.ratio = node.number("ratio", 0, 1);
        if (fit.ratio == 0) node.fail("ratio", "expected a fraction above 0, got 0");
    } else if (node.has("ratio")) {
        node.fail("ratio", "only the topk kernels have a ratio");
    }
    if (fit.kernel == CodecKernel::topk_decode)
        fit.blocks = count(node, "blocks", 1);
    else if (node.has("blocks"))
        node.fail("blocks", "only topk_decode has blocks");
    if (is_powersgd(fit.kernel))
        fit.rank = count(node, "rank", 1);
    else if (node.has("rank"))
        node.fail("rank", "only the powersgd kernels have a rank");
    fit.quality = quality_from(node.child("quality"));
    if (node.has("measured")) measured_from(node.child("measured"), fit.measured, fit.measured_error_s);
    return fit;
}

ComputeProfile compute_from(const ConfigNode& node) {
    node.require_map_with_keys(
        {"device", "gemm", "memory_bytes_per_second", "memory_quality", "launch_overhead_s", "shared_cores", "codecs"});
    ComputeProfile compute;
    compute.device = node.text("device");
    for (const auto& item : node.child("gemm").sequence()) compute.gemm.push_back(gemm_fit_from(item));
    compute.memory_bytes_per_second = node.quantity("memory_bytes_per_second", Quantity::bandwidth);
    compute.memory_quality = quality_from(node.child("memory_quality"));
    compute.launch_overhead_s = node.quantity("launch_overhead_s", Quantity::latency);
    if (node.has("shared_cores")) {
        const auto shared = node.child("shared_cores");
        shared.require_map_with_keys({"cores", "ranks"});
        compute.shared_cores = SharedCores{static_cast<int>(shared.integer("cores", 1, INT_MAX)),
                                           static_cast<int>(shared.integer("ranks", 1, INT_MAX))};
    }
    if (node.has("codecs"))
        for (const auto& item : node.child("codecs").sequence()) {
            auto fit = codec_fit_from(item);
            for (const auto& earlier : compute.codecs)
                if (earlier.kernel == fit.kernel && earlier.rank == fit.rank)
                    item.fail("kernel", "'" + std::string(to_string(fit.kernel)) + "' appears twice in codecs" +
                                            (is_powersgd(fit.kernel) ? " at rank " + std::to_string(fit.rank) : ""));
            compute.codecs.push_back(std::move(fit));
        }
    return compute;
}

int schema_version_from(const ConfigNode& root) {
    const auto version = root.integer("schema_version", 1, INT_MAX);
    if (version > kProfileSchemaVersion)
        root.fail("schema_version", "the profile has schema version " + std::to_string(version) +
                                        ", newer than this dtsim reads (" + std::to_string(kProfileSchemaVersion) +
                                        "); upgrade dtsim or fit the profile again with this version");
    return static_cast<int>(version);
}

}  // namespace

std::string profile_to_json(const Profile& profile) {
    Json j;
    j["schema_version"] = profile.schema_version;
    j["name"] = profile.name;
    j["source"] = profile.source;
    j["description"] = profile.description;
    j["environment"] = environment_object(profile.environment_json);
    j["network"] = Json::array();
    for (const auto& fit : profile.network) j["network"].push_back(network_fit_to_json(fit));
    if (profile.compute) j["compute"] = compute_to_json(*profile.compute);
    if (!profile.left_out.empty()) j["left_out"] = profile.left_out;
    return j.dump(2) + "\n";
}

Profile profile_from_json(const std::string& text, const std::string& file_label) {
    const auto root = ConfigNode::parse(text, std::make_shared<DocumentSource>(DocumentSource{file_label, {}}));
    // The version first: a newer profile may have keys this dtsim does not know, and saying "newer" is clearer.
    if (!root.is_map()) root.fail("", "expected a profile (a JSON object)");
    Profile profile;
    profile.schema_version = schema_version_from(root);
    root.require_map_with_keys(
        {"schema_version", "name", "source", "description", "environment", "network", "compute", "left_out"});
    profile.name = root.text("name");
    profile.source = root.choice("source", {"measured", "datasheet"});
    profile.description = optional_text(root, "description");
    const auto environment = root.child("environment");
    if (!environment.is_map()) environment.fail("", "expected a JSON object describing the calibration environment");
    profile.environment_json = yaml_to_json(environment.yaml()).dump();  // UTF-8: ConfigNode::parse checked it
    for (const auto& item : root.child("network").sequence()) profile.network.push_back(network_fit_from(item));
    if (root.has("compute")) profile.compute = compute_from(root.child("compute"));
    if (root.has("left_out"))
        for (const auto& item : root.child("left_out").sequence()) {
            if (!item.yaml().IsScalar()) item.fail("", "expected a line of text");
            profile.left_out.push_back(item.yaml().Scalar());
        }
    return profile;
}

Profile load_profile_file(const std::string& path) { return profile_from_json(read_text_file(path), path); }

std::shared_ptr<const Profile> load_shared_profile_file(const std::string& path) {
    struct Entry {
        std::filesystem::file_time_type modified;
        std::uintmax_t size = 0;
        std::shared_ptr<const Profile> profile;
    };
    static std::mutex mutex;
    static std::map<std::string, Entry> parsed;
    std::error_code error;
    const auto modified = std::filesystem::last_write_time(path, error);
    const auto size = error ? 0 : std::filesystem::file_size(path, error);
    if (error) return std::make_shared<const Profile>(load_profile_file(path));  // its own message for a missing file
    const std::lock_guard lock(mutex);
    auto& entry = parsed[path];
    if (!entry.profile || entry.modified != modified || entry.size != size)
        entry = Entry{modified, size, std::make_shared<const Profile>(load_profile_file(path))};
    return entry.profile;
}

}  // namespace dtsim
