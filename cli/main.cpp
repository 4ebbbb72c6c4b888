// dtsim: simulate distributed training scenarios, sweep them, browse the runs database, compare runs,
// and fit calibration samples into profiles.
#include <iostream>

#include "commands.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/sim/simulation.hpp"

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
