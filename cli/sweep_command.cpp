#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "child_runs.hpp"
#include "commands.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/output_files.hpp"
#include "dtsim/override_option.hpp"
#include "dtsim/positive_number.hpp"
#include "dtsim/run_json.hpp"
#include "dtsim/run_outputs.hpp"
#include "dtsim/units.hpp"
#include "dtsim/utf8_text.hpp"
#include "mpi_world.hpp"
#include "progress_display.hpp"
#include "sweep_points.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

struct SweepOptions {
    std::string scenario;
    std::vector<std::string> overrides;
    std::vector<std::string> vary;
    int jobs = 0;
    std::size_t max_points = kMaxSweepPoints;
    std::string json_path;
    std::string db_path;
    std::string label;
    bool quiet = false;
    bool progress_lines = false;
};

// The --set overrides of one point: the sweep's own, then the point's.
std::vector<std::string> point_overrides(const SweepOptions& options, const SweepPoint& point) {
    auto overrides = options.overrides;
    for (const auto& o : as_overrides(point)) overrides.push_back(o);
    return overrides;
}

// What loading each point's scenario says: why it cannot run (empty for the points that can), and the
// warnings `simulate` would print for it. Many points take a while to check: progress is said at every
// tenth of them.
struct PointChecks {
    std::vector<std::string> invalid;
    std::vector<std::vector<std::string>> warnings;
};

PointChecks check_points(const SweepOptions& options, const std::vector<SweepPoint>& points, bool progress) {
    constexpr size_t kPointsWorthProgress = 100;
    const size_t tenth = points.size() / 10;
    progress = progress && points.size() >= kPointsWorthProgress;
    PointChecks checks{std::vector<std::string>(points.size()), std::vector<std::vector<std::string>>(points.size())};
    for (size_t i = 0; i < points.size(); ++i) {
        try {
            checks.warnings[i] = load_scenario_file(options.scenario, point_overrides(options, points[i]), SweepValues::skip).warnings;
        } catch (const InputError& e) {
            checks.invalid[i] = e.what();
        }
        if (progress && ((i + 1) % tenth == 0 || i + 1 == points.size()))
            std::cerr << "checked " << i + 1 << "/" << points.size() << " points\n";
    }
    return checks;
}

std::string describe_point(const SweepPoint& point) {
    std::string text;
    for (const auto& o : as_overrides(point)) text += (text.empty() ? "" : ", ") + o;
    return text;
}

// A sweep value as a table cell: "{kind: allreduce, algorithm: ring}" reads "allreduce, algorithm: ring".
std::string display_value(std::string value) {
    if (value.size() >= 2 && value.front() == '{' && value.back() == '}') value = value.substr(1, value.size() - 2);
    if (value.rfind("kind: ", 0) == 0) value = value.substr(6);
    return value;
}

// One finished point as exchanged between MPI ranks: its index, exit code, result and error text.
nlohmann::json point_record(size_t index, const ChildResult& result) {
    return {{"index", index}, {"exit_code", result.exit_code}, {"json", result.output_json}, {"error", result.error_text}};
}

void print_sweep_table(std::ostream& out, const Scenario& base, const std::vector<SweepAxis>& axes,
                       const std::vector<SweepPoint>& points, const std::vector<nlohmann::json>& results,
                       const std::vector<std::string>& skipped) {
    std::vector<std::string> headers{"#"};
    std::vector<bool> right{true};
    for (const auto& axis : axes) {
        headers.push_back(axis.key);
        right.push_back(false);
    }
    for (const char* h : {"GPUs", "iteration", "samples/s", "speedup", "efficiency", "comm share"}) {
        headers.push_back(h);
        right.push_back(true);
    }
    TextTable table(headers, right);
    for (size_t i = 0; i < points.size(); ++i) {
        std::vector<std::string> row{std::to_string(i + 1)};
        for (const auto& [key, value] : points[i]) row.push_back(display_value(value));
        const auto& r = results[i];
        if (r.is_null()) {
            row.push_back(skipped[i].empty() ? "failed" : "skipped");
        } else {
            const auto s = summary_from_json(r);
            row.insert(row.end(), {std::to_string(s.gpus), format_seconds(s.iteration_time_s), fixed(s.samples_per_s, 1),
                                   fixed(s.speedup, 2) + "×", percent(s.scaling_efficiency), percent(s.comm_share)});
        }
        table.add_row(row);
    }
    out << "dtsim sweep: " << base.name << " — " << points.size() << " point(s)\n\n";
    table.print(out, "  ");
}

int run_sweep(const SweepOptions& options) {
    MpiWorld world;
    const auto base = load_scenario_file(options.scenario, options.overrides);
    std::vector<SweepAxis> axes;
    for (const auto& vary : options.vary) axes.push_back(parse_vary_option(vary));
    if (axes.empty()) axes = base.sweep;
    if (axes.empty())
        throw InputError(options.scenario + ": nothing to sweep: give --vary key=v1,v2,... or a `sweep:` section");
    require_utf8(options.label, "command line: --label");
    prepare_run_outputs({options.json_path, "", options.db_path}, base);
    count_sweep_points(axes, options.max_points, options.vary.empty() ? options.scenario + ": key 'sweep'" : "command line: --vary");
    const auto points = expand_sweep(axes);
    // Every point is checked before any simulation starts: an invalid one is skipped, said once, and the
    // others run. The points' warnings are said once each too, naming the points that give them.
    const auto checks = check_points(options, points, !options.quiet && world.rank() == 0);
    const auto& skipped = checks.invalid;
    std::vector<size_t> valid;
    for (size_t i = 0; i < points.size(); ++i) {
        if (skipped[i].empty())
            valid.push_back(i);
        else if (world.rank() == 0)
            std::cerr << "skipping point " << i + 1 << " (" << describe_point(points[i]) << "): " << skipped[i] << "\n";
    }
    if (world.rank() == 0 && !options.quiet)
        for (const auto& warning : sweep_warnings(checks.warnings)) std::cerr << "dtsim: warning: " << warning << "\n";

    std::vector<size_t> mine;
    std::vector<std::vector<std::string>> arguments;
    for (size_t v = 0; v < valid.size(); ++v) {
        if (static_cast<int>(v % static_cast<size_t>(world.size())) != world.rank()) continue;
        std::vector<std::string> args{"simulate", options.scenario, "--quiet", "--sweep-point"};
        for (const auto& o : point_overrides(options, points[valid[v]])) args.insert(args.end(), {"--set", o});
        if (!options.db_path.empty()) args.insert(args.end(), {"--db", options.db_path});
        if (!options.label.empty()) args.insert(args.end(), {"--label", options.label});
        mine.push_back(valid[v]);
        arguments.push_back(args);
    }
    const int jobs = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const auto results =
        run_children(arguments, jobs, "--json",
                     {progress_style(options.quiet, options.progress_lines, world.size()),
                      world.size() > 1 ? "sweep (rank " + std::to_string(world.rank()) + ")" : "sweep", "points"});

    std::vector<std::string> records;
    for (size_t j = 0; j < results.size(); ++j) records.push_back(point_record(mine[j], results[j]).dump());
    const auto gathered = world.gather(records);
    if (world.rank() != 0) return exit_code::ok;

    std::vector<nlohmann::json> summaries(points.size());
    int worst = exit_code::ok;
    for (const auto& text : gathered) {
        const auto record = nlohmann::json::parse(text);
        const auto index = record.at("index").get<size_t>();
        const int code = record.at("exit_code").get<int>();
        if (code == 0) {
            summaries[index] = nlohmann::json::parse(record.at("json").get<std::string>());
        } else {
            std::cerr << "point " << index + 1 << " failed (exit " << code << "):\n" << record.at("error").get<std::string>();
            worst = std::max(worst, code);
        }
    }
    print_sweep_table(std::cout, base, axes, points, summaries, skipped);
    if (!options.json_path.empty()) {
        nlohmann::ordered_json all = nlohmann::ordered_json::array();
        for (size_t i = 0; i < points.size(); ++i) {
            nlohmann::ordered_json overrides = nlohmann::ordered_json::object();
            for (const auto& [key, value] : points[i]) overrides[key] = value;
            all.push_back({{"overrides", overrides}, {"result", summaries[i]}});
        }
        write_text_file(options.json_path, all.dump(2) + "\n");
        std::cout << "\n  wrote " << options.json_path << "\n";
    }
    if (!options.db_path.empty()) std::cout << "  runs stored in " << options.db_path << "\n";
    if (const auto count = points.size() - valid.size(); count > 0) {
        std::cerr << "dtsim sweep: " << count << " of " << points.size()
                  << " point(s) skipped: their scenario is invalid (the lines starting 'skipping point' say why)\n";
        worst = std::max(worst, exit_code::bad_input);
    }
    return worst;
}

}  // namespace

void add_sweep_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<SweepOptions>();
    auto* cmd = app.add_subcommand("sweep", "Simulate a scenario at many points (cross product of --vary values)");
    cmd->add_option("scenario", options->scenario, "Scenario YAML file")->required();
    cmd->add_option("--vary", options->vary,
                    "A key and its values, e.g. --vary cluster.nodes=1,2,4,8; repeat for a cross product. "
                    "Default: the scenario's sweep: section")
        ->type_name("KEY=V1,V2,...");
    add_override_option(*cmd, options->overrides, "Override a scenario key at every point");
    cmd->add_option("--jobs", options->jobs, "Simulations run in parallel (default: number of cores)");
    cmd->add_option("--max-points", options->max_points,
                    "Run a sweep of up to this many points (default " + std::to_string(kMaxSweepPoints) + ")")
        ->check(kPositiveNumber);
    cmd->add_option("--json", options->json_path, "Write every point's overrides and summary as a JSON array");
    cmd->add_option("--db", options->db_path, "Append every point's run to this SQLite runs database");
    cmd->add_option("--label", options->label, "A name stored with every point's run (see `dtsim runs list`)");
    cmd->add_flag("--quiet", options->quiet, "No progress and no warnings: only the table, and errors");
    add_progress_lines_flag(*cmd, options->progress_lines);
    cmd->callback([options, &exit_code] { exit_code = run_sweep(*options); });
}

}  // namespace dtsim::cli
