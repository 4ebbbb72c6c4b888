// dtsim-runtime: the MPI program that runs on the real cluster, one rank per GPU (or CPU worker).
//   mpirun -np N dtsim-runtime calibrate --backend mpi|nccl --out DIR [--quick] [--resume]
//   mpirun -np N dtsim-runtime measure SCENARIO [--backend mpi|nccl] [--set K=V] [--db FILE] [--json FILE] [--trace FILE] [--verify]
#include <iostream>

#include "backend.hpp"
#include "mpi_context.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/run_store.hpp"
#include "subcommands.hpp"

namespace {

// Runs the chosen command on every rank; a failure on one rank that the others cannot know of aborts the job.
int run_under_mpi(const dtsim::runtime::ChosenCommand& chosen, int argc, char** argv) {
    dtsim::runtime::MpiContext context(argc, argv, chosen.mpi_thread_level);
    try {
        return chosen.run(context);
    } catch (const dtsim::InputError& e) {
        if (context.rank() == 0) std::cerr << "dtsim-runtime: error: " << e.what() << "\n";
        return dtsim::exit_code::bad_input;
    } catch (const dtsim::runtime::BackendUnavailable& e) {  // every rank knows (make_backend agrees first)
        if (context.rank() == 0) std::cerr << "dtsim-runtime: " << e.what() << "\n";
        return dtsim::exit_code::unavailable;
    } catch (const dtsim::StoreError& e) {  // rank 0 alone writes the run, after the others are done
        std::cerr << "dtsim-runtime: error: " << e.what() << "\n";
        return dtsim::exit_code::store_error;
    } catch (const std::exception& e) {
        // A failure on one rank leaves the others blocked in a collective: abort the whole job.
        std::cerr << "dtsim-runtime: rank " << context.rank() << ": error: " << e.what() << "\n";
        MPI_Abort(context.world(), dtsim::exit_code::failure);
        return dtsim::exit_code::failure;
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"dtsim-runtime: calibrate a real cluster, or measure a scenario on it (run under mpirun or srun, one "
                 "rank per GPU or CPU worker)"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "dtsim-runtime 0.1.0");
    dtsim::runtime::ChosenCommand chosen;
    dtsim::runtime::add_calibrate_command(app, chosen, std::vector<std::string>(argv, argv + argc));
    dtsim::runtime::add_measure_command(app, chosen);
    try {
        app.parse(argc, argv);
        dtsim::runtime::emulated_ranks_per_node();  // refused here, before MPI starts, if malformed
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : dtsim::exit_code::bad_input;
    } catch (const dtsim::InputError& e) {
        std::cerr << "dtsim-runtime: error: " << e.what() << "\n";
        return dtsim::exit_code::bad_input;
    }
    return run_under_mpi(chosen, argc, argv);
}
