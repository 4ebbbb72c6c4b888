#include "dtsim/calibrate/samples.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "dtsim/calibrate/plan.hpp"
#include "dtsim/calibrate/sample_estimate.hpp"
#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"

namespace dtsim::calibrate {
namespace {

using nlohmann::ordered_json;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

ordered_json network_fields(const Sample& sample) {
    return {{"mode", std::string(to_string(sample.mode))},
            {"link_class", std::string(to_string(sample.link_class.value_or(LinkClass::intra_node)))},
            {"backend", sample.backend},
            {"dtype", sample.dtype},
            {"bytes", static_cast<long long>(sample.bytes)},
            {"count", element_count(sample)},
            {"ranks", sample.ranks},
            {"nodes", sample.nodes},
            {"time_s", sample.time_s},
            {"algbw_GBps", algorithm_bandwidth_gbps(sample)},
            {"busbw_GBps", bus_bandwidth_gbps(sample)}};
}

ordered_json compute_fields(const Sample& sample) {
    const auto op = std::get<ComputeOp>(sample.op);
    ordered_json json{{"backend", sample.backend}, {"device", sample.device}};
    if (op == ComputeOp::gemm)
        json.update(ordered_json{{"dtype", sample.dtype}, {"m", sample.m}, {"n", sample.n}, {"k", sample.k},
                                 {"flops", sample.flops}, {"flops_per_s", sample.flops / sample.time_s}});
    else if (op != ComputeOp::launch_latency)
        json.update(ordered_json{{"bytes", static_cast<long long>(sample.bytes)}, {"bytes_per_s", sample.bytes / sample.time_s}});
    if (op == ComputeOp::codec) {
        json["kernel"] = std::string(to_string(sample.kernel));
        if (is_topk(sample.kernel)) json["ratio"] = sample.ratio;
        if (sample.kernel == CodecKernel::topk_decode) json["blocks"] = sample.blocks;
        if (is_powersgd(sample.kernel)) json["rank"] = sample.rank;
    }
    json.update(ordered_json{{"ranks", sample.ranks}, {"nodes", sample.nodes}, {"time_s", sample.time_s}});
    return json;
}

// Every sample time and size is a finite number above 0.
double positive(const ConfigNode& line, std::string_view key) {
    double value = 0;
    const auto node = line.has(key) ? line.yaml()[std::string(key)] : YAML::Node();
    if (!node.IsScalar() || node.Tag() == "!" || !YAML::convert<double>::decode(node, value) || !(value > 0) ||
        !std::isfinite(value))
        line.fail(key, "expected a positive number");
    return value;
}

int count(const ConfigNode& line, std::string_view key, int min_value) {
    return static_cast<int>(line.integer(key, min_value, INT_MAX));
}

std::string optional_sample_text(const ConfigNode& line, std::string_view key) {
    return line.has(key) ? line.text(key) : "";
}

std::vector<double> times(const ConfigNode& line, std::string_view key) {
    std::vector<double> values;
    if (!line.has(key)) return values;
    for (const auto& item : line.child(key).sequence()) values.push_back(item.number("", 0, kInfinity));
    return values;
}

void read_network_fields(const ConfigNode& line, Sample& sample) {
    sample.mode = line.choice("mode", kTimingModeNames);
    sample.link_class = line.choice("link_class", kLinkClassNames);
    sample.bytes = positive(line, "bytes");
    sample.dtype = optional_sample_text(line, "dtype");
}

void read_compute_fields(const ConfigNode& line, ComputeOp op, Sample& sample) {
    sample.device = line.text("device");
    if (op == ComputeOp::gemm) {
        sample.dtype = kGemmDtypeNames.name(line.choice("dtype", kGemmDtypeNames));
        if (line.has("m")) {
            sample.m = line.integer("m", 1, LLONG_MAX);
            sample.n = line.integer("n", 1, LLONG_MAX);
            sample.k = line.integer("k", 1, LLONG_MAX);
        }
        // flops as written, else from the shape: a multiply and an add per term of each of m·n inner products.
        sample.flops = line.has("m") && !line.has("flops")
                           ? 2.0 * static_cast<double>(sample.m) * static_cast<double>(sample.n) * static_cast<double>(sample.k)
                           : positive(line, "flops");
    } else if (op != ComputeOp::launch_latency) {
        sample.bytes = positive(line, "bytes");
    }
    if (op == ComputeOp::codec) {
        sample.kernel = line.choice("kernel", kCodecKernelNames);
        if (is_topk(sample.kernel)) sample.ratio = positive(line, "ratio");
        if (sample.kernel == CodecKernel::topk_decode) sample.blocks = count(line, "blocks", 1);
        if (is_powersgd(sample.kernel)) sample.rank = count(line, "rank", 1);
    }
}

CalibrationOp op_of(const ConfigNode& line) {
    const auto names = calibration_op_names();
    return *parse_calibration_op(line.choice("op", names));
}

Sample sample_from(const ConfigNode& line) {
    if (!line.is_map()) line.fail("", "expected one JSON object per line");
    Sample sample;
    sample.key = line.text("key");
    sample.op = op_of(line);
    sample.time_s = positive(line, "time_s");
    sample.ranks = count(line, "ranks", 1);
    sample.nodes = count(line, "nodes", 1);
    sample.iteration_times_s = times(line, "iteration_times_s");
    sample.backend = optional_sample_text(line, "backend");
    if (line.has("iterations")) sample.iterations = count(line, "iterations", 0);
    if (line.has("warmup")) sample.warmup = count(line, "warmup", 0);
    sample.timestamp = optional_sample_text(line, "timestamp");
    if (const auto* compute = std::get_if<ComputeOp>(&sample.op))
        read_compute_fields(line, *compute, sample);
    else
        read_network_fields(line, sample);
    return sample;
}

/// Splits text into lines; `complete` tells whether the last one ended with a newline.
std::vector<std::string> split_lines(const std::string& text, bool& complete) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        if (end == std::string::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    complete = text.empty() || text.back() == '\n';
    return lines;
}

bool is_blank(const std::string& line) {
    return std::all_of(line.begin(), line.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

// JSON is YAML: the line is checked as JSON first (so that its message says so), then read by ConfigNode,
// whose messages name the file, the line and the key.
void check_json_object(const std::string& line, const std::string& where) {
    const auto object = nlohmann::json::parse(line, nullptr, false);
    if (object.is_discarded()) throw InputError(where + ": expected one JSON object per line, got '" + line + "'");
    if (!object.is_object()) throw InputError(where + ": expected one JSON object per line, got " + object.dump());
}

}  // namespace

double algorithm_bandwidth_gbps(const Sample& sample) { return sample.bytes / sample.time_s / 1e9; }
double bus_bandwidth_gbps(const Sample& sample) {
    return algorithm_bandwidth_gbps(sample) * bus_bandwidth_factor(std::get<NetworkOp>(sample.op), sample.ranks);
}
long long element_count(const Sample& sample) { return static_cast<long long>(sample.bytes / 4); }

std::string sample_to_json_line(const Sample& sample) {
    ordered_json json{{"key", sample.key}, {"op", std::string(to_string(sample.op))}};
    json.update(is_network(sample.op) ? network_fields(sample) : compute_fields(sample));
    json.update(ordered_json{{"iterations", sample.iterations},
                             {"warmup", sample.warmup},
                             {"iteration_times_s", sample.iteration_times_s}});
    if (!sample.iteration_times_s.empty()) {  // for the reader of the file: the fit derives them again
        const auto estimate = estimate_sample(sample.iteration_times_s);
        json.update(ordered_json{{"stalls", estimate.stalls}, {"spread", estimate.spread}});
    }
    if (!sample.timestamp.empty()) json["timestamp"] = sample.timestamp;
    return json.dump();
}

Sample sample_from_json_line(const std::string& line, const std::string& file, int line_number) {
    check_json_object(line, file + ":" + std::to_string(line_number));
    // Blank lines before it, so that the node's line is the file's.
    const auto source = std::make_shared<DocumentSource>(DocumentSource{file, {}});
    return sample_from(ConfigNode::parse(std::string(static_cast<size_t>(line_number - 1), '\n') + line, source));
}

SampleFile read_samples_file(const std::string& path) {
    bool complete = true;
    const auto lines = split_lines(read_text_file(path, kAnyFileSize), complete);
    // The whole file as one YAML list, one item per line, so that a node's line is the file's.
    std::string document;
    SampleFile file;
    for (size_t i = 0; i < lines.size(); ++i) {
        // A crash mid-write leaves a last line without its newline; everything before it is still good.
        const bool cut_short = !complete && i + 1 == lines.size();
        if (cut_short && !nlohmann::json::accept(lines[i])) {
            ++file.truncated_lines;
            break;
        }
        if (!is_blank(lines[i])) {
            check_json_object(lines[i], path + ":" + std::to_string(i + 1));
            document += "- " + lines[i];
        }
        document += "\n";
    }
    const auto source = std::make_shared<DocumentSource>(DocumentSource{path, {}});
    const auto list = ConfigNode::parse(document, source);
    if (!list.yaml().IsSequence()) return file;
    for (const auto& item : list.yaml()) file.samples.push_back(sample_from(ConfigNode(item, "", source)));
    return file;
}

}  // namespace dtsim::calibrate
