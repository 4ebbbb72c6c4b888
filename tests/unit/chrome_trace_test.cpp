#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>

#include "dtsim/chrome_trace.hpp"

namespace chrome_trace_test {

using namespace dtsim;

TEST_CASE("Chrome trace: one process per node, separate lanes per rank, nested spans", "[unit][trace]") {
    Run run;
    run.scenario_name = "t";
    run.ranks = {{0, 0, "gpu 0"}, {1, 1, "gpu 1"}, {2, 2, "server 0"}};
    run.spans = {{0, Lane::compute, "forward", 0, 0, 0.0, 0.001},
                 {0, Lane::comm, "allreduce", 0, 0, 0.0005, 0.002, 1e6},
                 {1, Lane::compute, "forward", 0, 0, 0.0, 0.001},
                 {2, Lane::compute, "aggregate", 0, 0, 0.002, 0.003}};
    std::ostringstream out;
    write_chrome_trace(run, out);
    const auto trace = nlohmann::json::parse(out.str());
    std::set<int> pids;
    std::map<std::pair<int, int>, std::string> thread_names;
    int complete = 0;
    for (const auto& e : trace.at("traceEvents")) {
        if (e["ph"] == "M" && e["name"] == "thread_name") thread_names[{e["pid"], e["tid"]}] = e["args"]["name"];
        if (e["ph"] != "X") continue;
        ++complete;
        pids.insert(e["pid"].get<int>());
        CHECK(e["dur"].get<double>() >= 0);
    }
    CHECK(complete == 4);
    CHECK(pids == std::set<int>{0, 1, 2});
    // Overlapping compute and communication of rank 0 are on different threads.
    CHECK(thread_names[{0, 0}] == "gpu 0 / compute");
    CHECK(thread_names[{0, 1}] == "gpu 0 / comm");
    CHECK(trace["traceEvents"].back()["args"]["iteration"] == 0);
}

TEST_CASE("Chrome trace: an LLM layout's communication carries its dimension as a category", "[unit][trace]") {
    Run run;
    run.ranks = {{0, 0, "gpu 0"}};
    run.spans = {{0, Lane::comm, "tp allreduce", 0, 0, 0.0, 0.001},
                 {0, Lane::comm, "dp reduce-scatter", 0, 0, 0.001, 0.002},
                 {0, Lane::comm, "allreduce", 0, 0, 0.002, 0.003},
                 {0, Lane::compute, "forward", 0, 3, 0.0, 0.001},
                 {0, Lane::wait, "pipeline bubble", 0, 0, 0.003, 0.004}};
    std::ostringstream out;
    write_chrome_trace(run, out);
    const auto trace = nlohmann::json::parse(out.str());
    std::map<std::string, std::string> categories;
    for (const auto& e : trace.at("traceEvents"))
        if (e["ph"] == "X") categories[e["name"].get<std::string>()] = e["cat"].get<std::string>();
    CHECK(categories["tp allreduce"] == "comm,tp");
    CHECK(categories["dp reduce-scatter"] == "comm,dp");
    CHECK(categories["allreduce"] == "comm");
    CHECK(categories["forward"] == "compute");
    CHECK(categories["pipeline bubble"] == "wait");
}

}  // namespace chrome_trace_test
