// dtsim: simulate distributed training scenarios, sweep them, browse the runs database, compare runs,
// and fit calibration samples into profiles.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dtsim/config_node.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/sim/simulation.hpp"

namespace {

// CLI11 takes an unknown first word for an extra argument, and with --help prints the general help and
// exits 0: name it instead. Empty when the first argument is an option or a known subcommand.
std::string unknown_subcommand_message(const CLI::App& app, int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') return {};
    const std::string word = argv[1];
    std::vector<std::string> names;
    for (const auto* subcommand : app.get_subcommands([](const CLI::App*) { return true; }))
        names.push_back(subcommand->get_name());
    if (std::find(names.begin(), names.end(), word) != names.end()) return {};
    std::string list;
    for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
    const auto hint = dtsim::closest_match(word, names);
    return "unknown subcommand '" + word + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
           "; expected one of: " + list;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"dtsim: predict how a distributed training job runs on a GPU cluster (SimGrid-based)"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "dtsim 0.1.0");
    int exit_code = dtsim::exit_code::ok;
    dtsim::cli::add_simulate_command(app, exit_code);
    dtsim::cli::add_sweep_command(app, exit_code);
    dtsim::cli::add_runs_command(app, exit_code);
    dtsim::cli::add_fit_command(app, exit_code);
    dtsim::cli::add_profile_command(app, exit_code);
    dtsim::cli::add_compare_command(app, exit_code);
    dtsim::cli::add_validate_command(app, exit_code);
    dtsim::cli::add_model_command(app, exit_code);
    dtsim::cli::add_collective_command(app, exit_code);
    dtsim::cli::add_plan_command(app, exit_code);
    dtsim::cli::add_advise_command(app, exit_code);
    if (const auto message = unknown_subcommand_message(app, argc, argv); !message.empty()) {
        std::cerr << "dtsim: error: " << message << "\n";
        return dtsim::exit_code::bad_input;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : dtsim::exit_code::bad_input;
    } catch (const dtsim::InputError& e) {
        std::cerr << "dtsim: error: " << e.what() << "\n";
        return dtsim::exit_code::bad_input;
    } catch (const dtsim::sim::DeadlockError& e) {
        std::cerr << "dtsim: error: " << e.what() << "\n";
        return dtsim::exit_code::deadlock;
    } catch (const dtsim::StoreError& e) {
        std::cerr << "dtsim: error: " << e.what() << "\n";
        return dtsim::exit_code::store_error;
    } catch (const std::exception& e) {
        std::cerr << "dtsim: error: " << e.what() << "\n";
        return dtsim::exit_code::failure;
    }
    return exit_code;
}
