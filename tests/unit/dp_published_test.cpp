// bench/dp-published: every row of published.tsv becomes a scenario that loads, and that scenario is the row's
// (cluster, model, accumulation, strategy, optimizer, and a single-GPU step of batch / the published 1-GPU
// throughput).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>

#include "dtsim/scenario.hpp"
#include "test_support.hpp"

namespace dp_published_test {

using namespace dtsim;

namespace {

using Row = std::map<std::string, std::string>;

std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream in(line);
    for (std::string field; std::getline(in, field, '\t');) fields.push_back(field);
    return fields;
}

std::vector<Row> published_rows() {
    std::ifstream in(test::source_dir() / "bench/dp-published/published.tsv");
    std::vector<std::string> header;
    std::vector<Row> rows;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        const auto fields = split_tabs(line);
        if (header.empty()) {
            header = fields;
            continue;
        }
        REQUIRE(fields.size() == header.size());
        Row row;
        for (std::size_t i = 0; i < fields.size(); ++i) row[header[i]] = fields[i];
        rows.push_back(row);
    }
    return rows;
}

}  // namespace

TEST_CASE("every dp-published row builds the scenario it describes", "[unit][bench]") {
    const auto rows = published_rows();
    REQUIRE(rows.size() >= 15);
    TemporaryDirectory dir("dp-published");
    const auto script = (test::source_dir() / "bench/dp-published/run.sh").string();
    const auto written = test::run_command("bash", {script, "--scenarios", dir.path().string()});
    REQUIRE(written.exit_code == 0);

    int parameter_server_rows = 0;
    int beyond_one_node = 0;
    int optimizer_rows = 0;
    for (const auto& row : rows) {
        INFO("row " << row.at("id"));
        const auto scenario = load_scenario_file(dir.file(row.at("id") + ".yaml"));
        const int gpus = scenario.cluster.gpus();
        CHECK(gpus >= 8);
        CHECK(gpus <= 512);
        CHECK(scenario.cluster.nodes == std::stoi(row.at("nodes")));
        CHECK(scenario.cluster.gpus_per_node == std::stoi(row.at("gpus_per_node")));
        REQUIRE(scenario.model.zoo);
        CHECK(scenario.model.zoo->name == row.at("model"));
        CHECK(to_string(scenario.model.precision) == row.at("precision"));
        CHECK(scenario.model.batch_per_gpu == std::stoi(row.at("batch")));
        CHECK(scenario.training.accumulation_steps == std::stoi(row.at("accumulation")));
        // The compute of one step is the published 1-GPU figure's; the published multi-GPU figure is not an input.
        REQUIRE(scenario.model.single_gpu_step_s);
        CHECK(*scenario.model.single_gpu_step_s == Approx(std::stod(row.at("batch")) / std::stod(row.at("one_gpu"))).epsilon(1e-8));
        CHECK(to_string(scenario.training.strategy.kind) == row.at("strategy"));
        // The optimizer step is priced only where the row steps it more often than the run behind the 1-GPU figure.
        const bool steps_more_often = row.at("optimizer") != "-" &&
                                      std::stoi(row.at("accumulation")) < std::stoi(row.at("one_gpu_accumulation"));
        REQUIRE(scenario.training.optimizer.has_value() == steps_more_often);
        if (steps_more_often) CHECK(kOptimizerKindNames.name(scenario.training.optimizer->kind) == row.at("optimizer"));
        optimizer_rows += steps_more_often;
        if (scenario.training.strategy.kind == StrategyKind::parameter_server) {
            ++parameter_server_rows;
            CHECK(scenario.training.strategy.servers == std::stoi(row.at("servers")));
            CHECK(scenario.training.strategy.placement == ServerPlacement::colocated);
        } else {
            CHECK(row.at("servers") == "-");
            CHECK(scenario.training.strategy.algorithm == AllReduceAlgorithm::nccl);
        }
        // A published rate beyond perfect scaling of the 1-GPU figure would be a transcription error.
        CHECK(std::stod(row.at("published")) <= gpus * std::stod(row.at("one_gpu")) * 1.01);
        beyond_one_node += scenario.cluster.nodes > 1;
    }
    CHECK(parameter_server_rows > 0);
    CHECK(beyond_one_node > 0);
    CHECK(optimizer_rows > 0);
}

}  // namespace dp_published_test
