#include <memory>

#include "dtsim/override_option.hpp"
#include "measure/measure_command.hpp"
#include "open_mpi_tuning.hpp"
#include "subcommands.hpp"

namespace dtsim::runtime {

void add_measure_command(CLI::App& app, ChosenCommand& chosen) {
    auto options = std::make_shared<MeasureOptions>();
    auto compute = std::make_shared<std::string>("busy");
    auto* measure = app.add_subcommand("measure", "run a scenario's training loop for real and store it as a measured run");
    measure->add_option("scenario", options->scenario, "Scenario YAML file")->required();
    measure->add_option("--backend", options->backend,
                        "mpi: CPU workers, gradients in host memory, the runtime's own MPI collectives; nccl: one GPU per "
                        "rank, cuBLAS compute, NCCL all-reduce on a communication stream")
        ->check(CLI::IsMember({"mpi", "nccl"}))
        ->capture_default_str();
    add_override_option(*measure, options->overrides, "Override a scenario key, e.g. --set cluster.nodes=2");
    measure->add_option("--json", options->outputs.json_path, "Write the run summary and iterations as JSON");
    measure->add_option("--trace", options->outputs.trace_path, "Write a Chrome/Perfetto trace of the timeline");
    measure->add_option("--db", options->outputs.db_path, "Append the run to this SQLite runs database");
    measure->add_option("--label", options->label, "A name for the run, stored with it and shown by `dtsim runs list`");
    measure->add_option("--compute", *compute,
                        "busy: spin for each layer's modelled time; sleep: sleep for it (an emulated device that takes no "
                        "core: hosts with more ranks than cores, such as the one-machine testbed); gemm: run each layer's "
                        "FLOPs as fp32 GEMMs on the CPU (zoo models)")
        ->check(CLI::IsMember({"busy", "sleep", "gemm"}))
        ->capture_default_str();
    add_poll_interval_option(*measure);
    measure->add_flag("--verify", options->verify,
                      "check every synchronised gradient against the exact sum over workers (costs time)");
    measure->callback([options, compute, &chosen] {
        options->compute = *compute == "gemm" ? ComputeMode::gemm : *compute == "sleep" ? ComputeMode::sleep : ComputeMode::busy;
        set_mpi_tcp_eager_sends();  // measured runs send as the calibration did
        chosen.mpi_thread_level = measure_thread_level(*options);
        chosen.run = [options](const MpiContext& context) { return run_measure(*options, context); };
    });
}

}  // namespace dtsim::runtime
