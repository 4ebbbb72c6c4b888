// dtsim-runtime: the MPI program that runs on the real cluster, one rank per GPU (or CPU worker).
//   mpirun -np N dtsim-runtime calibrate --backend mpi|nccl --out DIR [--quick] [--resume]
//   mpirun -np N dtsim-runtime measure SCENARIO [--backend mpi|nccl] [--set K=V] [--db FILE] [--json FILE] [--trace FILE] [--verify]
#include <CLI/CLI.hpp>

#include <iostream>

#include "backend.hpp"
#include "calibrate_command.hpp"
#include "dtsim/calibrate/environment.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/units.hpp"
#include "measure/measure_command.hpp"
#include "mpi_algorithms.hpp"
#include "mpi_context.hpp"
#include "mpi_waiting.hpp"

namespace {

double size_option(const std::string& text, const char* option) {
    const auto bytes = dtsim::parse_bytes(text);
    if (!bytes || *bytes < 1)
        throw dtsim::InputError(std::string(option) + " '" + text + "': expected a size of at least one byte, such as 8B or 64MiB");
    return *bytes;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"dtsim-runtime: calibrate a real cluster, or measure a scenario on it (run under mpirun or srun, one "
                 "rank per GPU or CPU worker)"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "dtsim-runtime 0.1.0");

    dtsim::runtime::CalibrateOptions options;
    std::string min_text = "8B", max_text, ops_text;
    auto* calibrate = app.add_subcommand("calibrate", "measure collectives, point-to-point and compute kernels");
    calibrate->add_option("--backend", options.backend, "mpi (MPI + CPU) or nccl (NCCL + CUDA)")
        ->check(CLI::IsMember({"mpi", "nccl"}))
        ->capture_default_str();
    calibrate->add_option("--out", options.out, "directory for samples.jsonl and environment.json")->required();
    calibrate->add_flag("--quick", options.plan.quick, "a short sweep (minutes, not hours)");
    calibrate->add_flag("--resume", options.resume, "keep the samples already in --out and take only the missing ones");
    calibrate->add_option("--min", min_text, "smallest message size")->capture_default_str();
    calibrate->add_option("--max", max_text, "largest message size (default 1GB on GPUs, 64MiB on CPUs; less with --quick)");
    calibrate->add_option("--factor", options.plan.factor, "multiplicative step between sizes")
        ->check(CLI::Range(1.01, 1024.0))
        ->capture_default_str();
    calibrate->add_option("--ops", ops_text, "comma-separated subset of operations (default: all)");
    calibrate->add_option("--target-time", options.target_seconds, "seconds of timed work per sample (default 0.02 quick, 0.2 full)")
        ->check(CLI::Range(1e-4, 60.0));
    calibrate->add_flag("--print-plan", options.print_plan, "print the keys of the samples the plan would take, and exit");

    dtsim::runtime::MeasureOptions measure_options;
    auto* measure = app.add_subcommand("measure", "run a scenario's training loop for real and store it as a measured run");
    measure->add_option("scenario", measure_options.scenario, "Scenario YAML file")->required();
    measure->add_option("--backend", measure_options.backend,
                        "mpi: CPU workers, gradients in host memory, the runtime's own MPI collectives; nccl: one GPU per "
                        "rank, cuBLAS compute, NCCL all-reduce on a communication stream")
        ->check(CLI::IsMember({"mpi", "nccl"}))
        ->capture_default_str();
    measure->add_option("--set", measure_options.overrides, "Override a scenario key, e.g. --set cluster.nodes=2")
        ->type_name("KEY=VALUE");
    measure->add_option("--json", measure_options.outputs.json_path, "Write the run summary and iterations as JSON");
    measure->add_option("--trace", measure_options.outputs.trace_path, "Write a Chrome/Perfetto trace of the timeline");
    measure->add_option("--db", measure_options.outputs.db_path, "Append the run to this SQLite runs database");
    std::string compute = "busy";
    measure->add_option("--compute", compute,
                        "busy: spin for each layer's modelled time; sleep: sleep for it (an emulated device that takes no "
                        "core: hosts with more ranks than cores, such as the one-machine testbed); gemm: run each layer's "
                        "FLOPs as fp32 GEMMs on the CPU (zoo models)")
        ->check(CLI::IsMember({"busy", "sleep", "gemm"}))
        ->capture_default_str();
    std::string poll_text = "0";
    for (auto* command : {calibrate, measure})
        command->add_option("--poll-interval", poll_text,
                            "wait on MPI requests by testing them and sleeping this long in between, e.g. 20us, so that "
                            "waiting ranks leave their cores to the network stack (hosts with more ranks than cores); 0: "
                            "MPI's own blocking waits, which spin")
            ->capture_default_str();
    measure->add_flag("--verify", measure_options.verify,
                      "check every synchronised gradient against the exact sum over workers (costs time)");

    try {
        app.parse(argc, argv);
        const auto poll = dtsim::parse_seconds(poll_text);
        if (!poll || *poll < 0 || *poll > 0.01)
            throw dtsim::InputError("--poll-interval: expected a duration from 0 to 10ms such as 20us, got '" + poll_text + "'");
        dtsim::runtime::set_wait_sleep(*poll);
        if (calibrate->parsed()) {
            options.plan.min_bytes = size_option(min_text, "--min");
            if (!max_text.empty()) options.plan.max_bytes = size_option(max_text, "--max");
            if (options.plan.max_bytes > 0 && options.plan.max_bytes < options.plan.min_bytes)
                throw dtsim::InputError("--max " + max_text + " is smaller than --min " + min_text);
            for (size_t start = 0; !ops_text.empty() && start <= ops_text.size();) {
                const auto end = std::min(ops_text.find(',', start), ops_text.size());
                const std::string name = ops_text.substr(start, end - start);
                const auto op = dtsim::calibrate::parse_calibration_op(name);
                if (!op) {
                    std::string list;
                    for (auto known : dtsim::calibrate::calibration_op_names()) list += (list.empty() ? "" : ", ") + std::string(known);
                    throw dtsim::InputError("--ops: unknown operation '" + name + "'; expected some of: " + list);
                }
                options.plan.ops.push_back(*op);
                start = end + 1;
            }
        }
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : dtsim::exit_code::bad_input;
    } catch (const dtsim::InputError& e) {
        std::cerr << "dtsim-runtime: error: " << e.what() << "\n";
        return dtsim::exit_code::bad_input;
    }
    const bool measuring = measure->parsed();
    measure_options.compute = compute == "gemm"    ? dtsim::runtime::ComputeMode::gemm
                              : compute == "sleep" ? dtsim::runtime::ComputeMode::sleep
                                                   : dtsim::runtime::ComputeMode::busy;
    options.command_line = dtsim::calibrate::calibration_command(std::vector<std::string>(argv, argv + argc));
    if (!measuring && options.backend == "mpi") options.pinned_algorithms = dtsim::runtime::pin_mpi_collective_algorithms();
    options.mpi_transport = dtsim::runtime::set_mpi_tcp_eager_sends();  // measured runs too: they must send alike

    // A measured run's communication thread makes the MPI calls while the iterations run.
    dtsim::runtime::MpiContext context(argc, argv, measuring ? MPI_THREAD_SERIALIZED : MPI_THREAD_FUNNELED);
    try {
        return measuring ? dtsim::runtime::run_measure(measure_options, context) : dtsim::runtime::run_calibrate(options, context);
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
