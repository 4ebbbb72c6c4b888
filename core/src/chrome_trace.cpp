#include "dtsim/chrome_trace.hpp"

#include <nlohmann/json.hpp>

#include <map>

#include "dtsim/output_files.hpp"
#include "dtsim/timeline_names.hpp"

namespace dtsim {
namespace {

constexpr int kLanesPerRank = 3;

int thread_id(int rank, Lane lane) { return rank * kLanesPerRank + static_cast<int>(lane); }

// The lane, and for an LLM layout's communication its dimension too ("comm,tp"): trace viewers filter on
// each comma-separated category.
std::string category(const Span& span) {
    const auto dimension = span.lane == Lane::comm ? span_dimension(span.name) : std::nullopt;
    return to_string(span.lane) + (dimension ? "," + std::string(kDimensionNames.name(*dimension)) : "");
}

void write_event(std::ostream& out, const nlohmann::json& event, bool& first) {
    out << (first ? "\n" : ",\n") << event.dump();
    first = false;
}

}  // namespace

void write_chrome_trace(const Run& run, std::ostream& out) {
    std::map<int, int> node_of_rank;
    for (const auto& r : run.ranks) node_of_rank[r.rank] = r.node;
    bool first = true;
    out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"scenario\":" << nlohmann::json(run.scenario_name).dump()
        << ",\"kind\":\"" << to_string(run.kind) << "\"},\"traceEvents\":[";

    std::map<int, bool> named_nodes;
    for (const auto& r : run.ranks) {
        if (!named_nodes[r.node]) {
            write_event(out, {{"ph", "M"}, {"name", "process_name"}, {"pid", r.node}, {"tid", 0},
                              {"args", {{"name", "node " + std::to_string(r.node)}}}}, first);
            write_event(out, {{"ph", "M"}, {"name", "process_sort_index"}, {"pid", r.node}, {"tid", 0},
                              {"args", {{"sort_index", r.node}}}}, first);
            named_nodes[r.node] = true;
        }
        for (auto lane : {Lane::compute, Lane::comm, Lane::wait}) {
            const int tid = thread_id(r.rank, lane);
            write_event(out, {{"ph", "M"}, {"name", "thread_name"}, {"pid", r.node}, {"tid", tid},
                              {"args", {{"name", r.label + " / " + to_string(lane)}}}}, first);
            write_event(out, {{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", r.node}, {"tid", tid},
                              {"args", {{"sort_index", tid}}}}, first);
        }
    }
    for (const auto& span : run.spans) {
        nlohmann::json args = {{"iteration", span.iteration}, {"index", span.index}};
        if (span.bytes > 0) args["bytes"] = span.bytes;
        write_event(out, {{"ph", "X"},
                          {"name", span.name},
                          {"cat", category(span)},
                          {"pid", node_of_rank[span.rank]},
                          {"tid", thread_id(span.rank, span.lane)},
                          {"ts", span.start_s * 1e6},
                          {"dur", (span.end_s - span.start_s) * 1e6},
                          {"args", args}},
                    first);
    }
    out << "\n]}\n";
}

void write_chrome_trace_file(const Run& run, const std::string& path) {
    write_file_atomically(path, [&](std::ostream& out) { write_chrome_trace(run, out); });
}

}  // namespace dtsim
