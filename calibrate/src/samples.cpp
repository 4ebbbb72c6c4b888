#include "dtsim/calibrate/samples.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"

namespace dtsim::calibrate {
namespace {

const std::vector<std::string> kNetworkOps = {"allreduce", "allgather", "reducescatter", "broadcast",
                                              "alltoall",  "sendrecv",  "exchange",      "pingpong"};
const std::vector<std::string> kComputeOps = {"gemm", "memory_bandwidth", "launch_latency", "host_to_device",
                                              "device_to_host", "codec"};

/// One line's JSON object and where it came from, so that every error names the file, line and key.
class Line {
public:
    Line(const nlohmann::json& object, const std::string& where) : object_(object), where_(where) {}

    [[noreturn]] void fail(const std::string& key, const std::string& expected) const {
        throw InputError(where_ + ": key '" + key + "': " + expected);
    }
    bool has(const std::string& key) const { return object_.contains(key) && !object_.at(key).is_null(); }

    std::string text(const std::string& key) const {
        if (!has(key) || !object_.at(key).is_string() || object_.at(key).get<std::string>().empty())
            fail(key, "expected a non-empty text value");
        return object_.at(key).get<std::string>();
    }
    std::string optional_text(const std::string& key) const { return has(key) ? text(key) : ""; }

    std::string choice(const std::string& key, const std::vector<std::string>& options) const {
        const auto value = text(key);
        if (std::find(options.begin(), options.end(), value) != options.end()) return value;
        std::string list;
        for (const auto& option : options) list += (list.empty() ? "" : " | ") + option;
        const auto hint = closest_match(value, options);
        fail(key, "expected one of " + list + ", got '" + value + "'" +
                      (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }

    double positive(const std::string& key) const {
        if (!has(key) || !object_.at(key).is_number() || !(object_.at(key).get<double>() > 0) ||
            !std::isfinite(object_.at(key).get<double>()))
            fail(key, "expected a positive number");
        return object_.at(key).get<double>();
    }

    int count(const std::string& key) const {
        const auto& value = has(key) ? object_.at(key) : nlohmann::json();
        if (!value.is_number_integer() || value.get<long long>() < 1 ||
            value.get<long long>() > std::numeric_limits<int>::max())
            fail(key, "expected an integer of at least 1");
        return value.get<int>();
    }

    std::vector<double> times(const std::string& key) const {
        std::vector<double> values;
        if (!has(key)) return values;
        if (!object_.at(key).is_array()) fail(key, "expected a list of non-negative numbers of seconds");
        for (const auto& item : object_.at(key)) {
            if (!item.is_number() || !(item.get<double>() >= 0) || !std::isfinite(item.get<double>()))
                fail(key, "expected a list of non-negative numbers of seconds");
            values.push_back(item.get<double>());
        }
        return values;
    }

private:
    const nlohmann::json& object_;
    const std::string& where_;
};

void read_network_fields(const Line& line, Sample& sample) {
    sample.mode = line.choice("mode", {"throughput", "latency"});
    sample.link_class = link_class_from_string(line.choice("link_class", {"intra_node", "inter_node", "mixed"}));
    sample.bytes = line.positive("bytes");
    sample.dtype = line.optional_text("dtype");
}

void read_compute_fields(const Line& line, Sample& sample) {
    sample.device = line.text("device");
    if (sample.op == "gemm") {
        sample.dtype = line.choice("dtype", {"float32", "float16", "bfloat16"});
        // flops as written, else from the shape: a multiply and an add per term of each of m·n inner products.
        sample.flops = line.has("m") && !line.has("flops")
                           ? 2 * line.positive("m") * line.positive("n") * line.positive("k")
                           : line.positive("flops");
    } else if (sample.op != "launch_latency") {
        sample.bytes = line.positive("bytes");
    }
    if (sample.op == "codec") {
        sample.kernel = line.choice("kernel", codec_kernels());
        if (sample.kernel.starts_with("topk")) sample.ratio = line.positive("ratio");
        if (sample.kernel == "topk_decode") sample.blocks = line.count("blocks");
    }
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

}  // namespace

bool is_network_op(const std::string& op) {
    return std::find(kNetworkOps.begin(), kNetworkOps.end(), op) != kNetworkOps.end();
}

Sample sample_from_json_line(const std::string& text, const std::string& where) {
    nlohmann::json object;
    try {
        object = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(where + ": expected one JSON object per line: " + e.what());
    }
    if (!object.is_object()) throw InputError(where + ": expected one JSON object per line, got " + object.dump());

    const Line line(object, where);
    Sample sample;
    sample.key = line.text("key");
    std::vector<std::string> ops = kNetworkOps;
    ops.insert(ops.end(), kComputeOps.begin(), kComputeOps.end());
    sample.op = line.choice("op", ops);
    sample.time_s = line.positive("time_s");
    sample.ranks = line.count("ranks");
    sample.nodes = line.count("nodes");
    sample.iteration_times_s = line.times("iteration_times_s");
    if (is_network_op(sample.op))
        read_network_fields(line, sample);
    else
        read_compute_fields(line, sample);
    return sample;
}

SampleFile read_samples_file(const std::string& path) {
    bool complete = true;
    const auto lines = split_lines(read_text_file(path), complete);
    SampleFile file;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (is_blank(lines[i])) continue;
        // A crash mid-write leaves a last line without its newline; everything before it is still good.
        const bool cut_short = !complete && i + 1 == lines.size();
        if (cut_short && !nlohmann::json::accept(lines[i])) {
            ++file.truncated_lines;
            continue;
        }
        file.samples.push_back(sample_from_json_line(lines[i], path + ":" + std::to_string(i + 1)));
    }
    return file;
}

}  // namespace dtsim::calibrate
