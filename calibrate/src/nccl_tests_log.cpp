#include "dtsim/calibrate/nccl_tests_log.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "dtsim/calibrate/plan.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/physical_limits.hpp"

namespace dtsim::calibrate {
namespace {

// Columns of a result row before the two placements: size, count, type, redop, root.
constexpr size_t kLeadingColumns = 5;
// Per placement: time, algbw, busbw, #wrong; with per-iteration timing (-I) also i_min, i_max, i_p99, i_cv%.
constexpr size_t kPlacementColumns = 4;
constexpr size_t kPerIterationColumns = 4;
// Printed bandwidths have two decimals (fewer above 1000 GB/s), the time two decimals in µs.
constexpr double kPrintedBandwidthSlack = 0.015;
constexpr double kPrintedRelativeSlack = 2e-3;
// Logs run with NCCL_DEBUG=INFO on many ranks outgrow a scenario's 16 MiB; their text is read whole.
constexpr std::uintmax_t kMaxLogBytes = std::uintmax_t{256} << 20;

std::vector<std::string> tokens_of(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string token; in >> token;) out.push_back(token);
    return out;
}

bool starts_with(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }

std::optional<double> number(const std::string& token) {
    if (token.empty()) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size() || errno == ERANGE || !std::isfinite(value)) return std::nullopt;
    return value;
}

std::optional<long long> whole_number(const std::string& token) {
    if (token.empty() || !(std::isdigit(static_cast<unsigned char>(token[0])) || token[0] == '-')) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(token.c_str(), &end, 10);
    if (end != token.c_str() + token.size() || errno == ERANGE) return std::nullopt;
    return value;
}

std::string dtype_name(const std::string& nccl_tests_type) {
    if (nccl_tests_type == "float") return "float32";
    if (nccl_tests_type == "half") return "float16";
    return nccl_tests_type;
}

struct RankLine {
    int rank = 0;
    int group = 0;
    std::string host;
    std::string device;
};

// One run being read: its header so far, then its rows.
struct RunReader {
    std::optional<NetworkOp> op;
    std::string program;
    int header_line = 0;
    int warmup = 0, iterations = 0;
    bool one_at_a_time = false;  // -z: a barrier after each op, as dtsim-runtime's latency mode
    std::vector<RankLine> rank_lines;
    bool columns_seen = false;
    bool per_iteration = false;
    NcclTestsRun run;
};

[[noreturn]] void fail(const std::string& file, int line, const std::string& message) {
    throw InputError(file + ":" + std::to_string(line) + ": " + message);
}

std::optional<NetworkOp> op_of_program(const std::string& program) { return kNcclTestsPrograms.parse(program); }

std::optional<NetworkOp> op_from_file_name(const std::string& file_label) {
    const auto name = std::filesystem::path(file_label).filename().string();
    std::optional<NetworkOp> found;
    for (const auto& [op, program] : kNcclTestsPrograms.entries)
        if (name.find(program) != std::string::npos) {
            if (found) return std::nullopt;  // names two programs: neither is sure
            found = op;
        }
    return found;
}

// "#  Rank  0 Group  0 Pid  1234 on node-a device  0 [0000:07:00] NVIDIA H100 80GB HBM3"; before nccl-tests
// had groups, without "Group N".
RankLine rank_line(const std::vector<std::string>& t, const std::string& file, int line) {
    RankLine out;
    const auto expect = [&](bool ok) {
        if (!ok)
            fail(file, line,
                 "expected a device line '#  Rank N Group G Pid P on HOST device D [BUS] NAME', as nccl-tests prints under "
                 "'# Using devices'");
    };
    expect(t.size() >= 3);
    const auto rank = whole_number(t[2]);
    expect(rank && *rank >= 0 && *rank < 1'000'000);
    out.rank = static_cast<int>(*rank);
    size_t i = 3;
    if (i + 1 < t.size() && t[i] == "Group") {
        const auto group = whole_number(t[i + 1]);
        expect(group && *group >= 0 && *group < 1'000'000);
        out.group = static_cast<int>(*group);
        i += 2;
    }
    const auto on = std::find(t.begin() + static_cast<long>(i), t.end(), "on");
    expect(on != t.end() && on + 1 != t.end());
    out.host = *(on + 1);
    // The name follows "device", the device number and its bus id.
    const auto device = std::find(on + 1, t.end(), "device");
    if (t.end() - device > 3)
        for (auto word = device + 3; word != t.end(); ++word) out.device += (out.device.empty() ? "" : " ") + *word;
    return out;
}

// "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 ..."
void options_line(const std::vector<std::string>& t, RunReader& reader) {
    for (size_t i = 0; i + 1 < t.size(); ++i) {
        const auto value = whole_number(t[i + 1]);
        if (!value || *value < 0 || *value > 1'000'000'000) continue;
        if (t[i] == "iters:" && (i == 0 || (t[i - 1] != "warmup" && t[i - 1] != "agg"))) reader.iterations = static_cast<int>(*value);
        if (t[i] == "iters:" && i > 0 && t[i - 1] == "warmup") reader.warmup = static_cast<int>(*value);
    }
}

// The header is complete at the first row: the rank count, hosts and link class follow from its rank lines.
void close_header(RunReader& reader, const std::string& file, int line) {
    if (!reader.op) {
        if (reader.program.empty())
            fail(file, line,
                 "cannot tell which nccl-tests program wrote this log: it has no '# Collective test starting: NAME' line and "
                 "the file's name names none of " + kNcclTestsPrograms.choices() + "; rename the file after the program");
        fail(file, reader.header_line,
             "nccl-tests program '" + reader.program + "' is not one dtsim reads; expected one of " + kNcclTestsPrograms.choices());
    }
    if (reader.rank_lines.empty())
        fail(file, line, "a result row before any '#  Rank N ... on HOST device D' line: the log's header is missing or cut");
    std::map<int, int> group_sizes;
    std::set<int> ranks;
    for (const auto& r : reader.rank_lines) {
        ++group_sizes[r.group];
        if (!ranks.insert(r.rank).second) fail(file, line, "the header lists rank " + std::to_string(r.rank) + " twice");
    }
    if (*ranks.rbegin() + 1 != static_cast<int>(ranks.size()))
        fail(file, line, "the header's device lines list " + std::to_string(ranks.size()) + " ranks but number them up to " +
                             std::to_string(*ranks.rbegin()) + ": some are missing (a cut log?)");
    for (const auto& [group, size] : group_sizes)
        if (size != group_sizes.begin()->second)
            fail(file, line, "the header's groups have different sizes (" + std::to_string(group_sizes.begin()->second) +
                                 " and " + std::to_string(size) + " ranks); dtsim reads runs whose communicators are alike");
    auto& run = reader.run;
    run.op = *reader.op;
    run.ranks = group_sizes.begin()->second;
    if (run.ranks < 2) fail(file, line, "the run has one rank per communicator: no data crosses a link, nothing to fit");
    std::vector<const RankLine*> first_group;
    for (const auto& r : reader.rank_lines)
        if (r.group == group_sizes.begin()->first) first_group.push_back(&r);
    std::sort(first_group.begin(), first_group.end(), [](const RankLine* a, const RankLine* b) { return a->rank < b->rank; });
    run.device = first_group.front()->device;
    for (const auto* r : first_group) {
        if (std::find(run.hosts.begin(), run.hosts.end(), r->host) == run.hosts.end()) run.hosts.push_back(r->host);
        if (r->device != run.device) run.device.clear();
    }
}

LinkClass link_class_of(const NcclTestsRun& run) {
    if (run.hosts.size() == 1) return LinkClass::intra_node;
    if (static_cast<int>(run.hosts.size()) == run.ranks) return LinkClass::inter_node;
    return LinkClass::mixed;
}

std::string bandwidth_text(double gbps) {
    std::ostringstream out;
    out << gbps;
    return out.str();
}

// One result row: two samples, out-of-place then in-place.
void result_row(const std::vector<std::string>& t, RunReader& reader, const std::string& file, int line) {
    if (!reader.columns_seen)
        fail(file, line, "a result row before the column header ('#  size  count  type  redop  root  time  algbw  busbw ...')");
    const size_t per_placement = kPlacementColumns + (reader.per_iteration ? kPerIterationColumns : 0);
    const size_t expected = kLeadingColumns + 2 * per_placement;
    // A timestamp (-S) may follow the columns.
    if (t.size() != expected && t.size() != expected + 2)
        fail(file, line, "expected a result row of " + std::to_string(expected) + " columns (size count type redop root, then time algbw "
                             "busbw #wrong" + (reader.per_iteration ? " i_min i_max i_p99 i_cv%" : "") +
                             " out of place and in place), got " + std::to_string(t.size()));
    if (reader.run.samples.empty()) close_header(reader, file, line);
    const auto size = whole_number(t[0]);
    if (!size || *size <= 0 || out_of_range(Quantity::size, static_cast<double>(*size)))
        fail(file, line, "size '" + t[0] + "': expected a whole number of bytes from 1 B to 1 PB");
    auto& run = reader.run;
    const double bytes = static_cast<double>(*size);
    const double factor = bus_bandwidth_factor(run.op, run.ranks);
    for (int placement = 0; placement < 2; ++placement) {
        const size_t at = kLeadingColumns + static_cast<size_t>(placement) * per_placement;
        const char* name = placement == 0 ? "out-of-place" : "in-place";
        const auto time_us = number(t[at]);
        const auto algbw = number(t[at + 1]);
        const auto busbw = number(t[at + 2]);
        if (!time_us || !(*time_us > 0) || out_of_range(Quantity::duration, *time_us * 1e-6))
            fail(file, line, std::string(name) + " time '" + t[at] + "': expected a positive time in µs");
        if (!algbw || !busbw || *algbw < 0 || *busbw < 0)
            fail(file, line, std::string(name) + " algbw '" + t[at + 1] + "' and busbw '" + t[at + 2] + "': expected bandwidths in GB/s");
        if (t[at + 3] != "N/A") {
            const auto wrong = number(t[at + 3]);
            if (!wrong) fail(file, line, std::string(name) + " #wrong '" + t[at + 3] + "': expected a count or N/A");
            if (*wrong != 0)
                fail(file, line, std::string(name) + " result has " + t[at + 3] +
                                     " wrong elements: the collective returned wrong data; fix the run before fitting its times");
        }
        // The columns must agree with the header's rank count: algbw = size / time, busbw = algbw × factor.
        const double expected_algbw = bytes / (*time_us * 1e3);
        if (std::fabs(*algbw - expected_algbw) > kPrintedBandwidthSlack + 0.01 * expected_algbw)
            fail(file, line, std::string(name) + " algbw " + t[at + 1] + " GB/s is not size / time = " + bandwidth_text(expected_algbw) +
                                 " GB/s: the columns are not nccl-tests' (size in B, time in µs, GB = 1e9 B)");
        if (std::fabs(*busbw - *algbw * factor) > kPrintedBandwidthSlack * (1 + factor) + kPrintedRelativeSlack * *busbw)
            fail(file, line, std::string(name) + " busbw " + t[at + 2] + " GB/s is not algbw × " + bandwidth_text(factor) + " (" +
                                 std::string(kNcclTestsPrograms.name(run.op)) + " over " + std::to_string(run.ranks) +
                                 " ranks, the header's device lines): the header does not describe this run's ranks");
        Sample sample;
        sample.key = std::string(to_string(run.op)) + "/" + std::string(to_string(reader.one_at_a_time ? TimingMode::latency : TimingMode::throughput)) +
                     "/" + std::to_string(run.ranks) + "r/" + t[0] + "/" + name + "@" + file + ":" + std::to_string(line);
        sample.op = run.op;
        sample.mode = reader.one_at_a_time ? TimingMode::latency : TimingMode::throughput;
        sample.dtype = dtype_name(t[2]);
        sample.backend = "nccl";
        sample.link_class = link_class_of(run);
        sample.ranks = run.ranks;
        sample.nodes = static_cast<int>(run.hosts.size());
        sample.bytes = bytes;
        sample.time_s = *time_us * 1e-6;
        sample.iterations = reader.iterations;
        sample.warmup = reader.warmup;
        run.samples.push_back(std::move(sample));
    }
}

// The column header: which columns the rows have.
void column_header(const std::vector<std::string>& t, RunReader& reader, const std::string& file, int line) {
    if (std::find(t.begin(), t.end(), "cputime") != t.end())
        fail(file, line, "the time column is CPU time (nccl-tests -C): it is not the collective's time; run without -C");
    reader.per_iteration = std::find(t.begin(), t.end(), "i_min") != t.end();
    reader.columns_seen = true;
}

}  // namespace

std::vector<NcclTestsRun> parse_nccl_tests_log(const std::string& text, const std::string& file_label) {
    std::vector<NcclTestsRun> runs;
    std::optional<RunReader> reader;
    std::string program;  // from the last '# Collective test starting' line
    int program_line = 0;
    const auto finish = [&] {
        if (reader && !reader->run.samples.empty()) runs.push_back(std::move(reader->run));
        reader.reset();
    };
    std::istringstream in(text);
    int line_number = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto t = tokens_of(line);
        if (t.empty()) continue;
        if (t[0][0] == '#') {
            if (starts_with(line, "# Collective test starting:")) {
                program = t.size() > 4 ? std::filesystem::path(t[4]).filename().string() : "";
                program_line = line_number;
            } else if (t.size() > 1 && t[0] == "#" && t[1] == "nThread") {
                finish();
                reader.emplace();
                reader->header_line = program.empty() ? line_number : program_line;
                reader->program = program;
                reader->op = program.empty() ? op_from_file_name(file_label) : op_of_program(program);
                reader->run.first_line = reader->header_line;
                options_line(t, *reader);
                program.clear();
            } else if (reader && t.size() > 2 && t[0] == "#" && t[1] == "Rank") {
                reader->rank_lines.push_back(rank_line(t, file_label, line_number));
            } else if (reader && starts_with(line, "# Blocking Enabled:")) {
                reader->one_at_a_time = line.find("barrier") != std::string::npos && line.find("no barrier") == std::string::npos;
            } else if (reader && t.size() > 2 && t[0] == "#" && t[1] == "size") {
                column_header(t, *reader, file_label, line_number);
            }
            continue;
        }
        // A line that does not start with a whole number (NCCL's INFO lines, mpirun's messages) is not nccl-tests'.
        if (!std::all_of(t[0].begin(), t[0].end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) continue;
        if (!reader) fail(file_label, line_number, "a result row before the '# nThread ...' line that starts an nccl-tests run");
        result_row(t, *reader, file_label, line_number);
    }
    finish();
    if (runs.empty())
        throw InputError(file_label + ": no nccl-tests result rows; expected the output of an nccl-tests program (" +
                         kNcclTestsPrograms.choices() + ") with its '# nThread' header");
    return runs;
}

std::vector<NcclTestsRun> read_nccl_tests_log(const std::string& path) {
    return parse_nccl_tests_log(read_text_file(path, kMaxLogBytes), path);
}

}  // namespace dtsim::calibrate
