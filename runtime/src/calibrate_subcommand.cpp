#include <algorithm>
#include <memory>

#include "calibrate_command.hpp"
#include "dtsim/calibrate/environment.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/units.hpp"
#include "open_mpi_tuning.hpp"
#include "subcommands.hpp"

namespace dtsim::runtime {
namespace {

double size_option(const std::string& text, const char* option) {
    const auto bytes = parse_bytes(text);
    if (!bytes || *bytes < 1)
        throw InputError(std::string(option) + " '" + text + "': expected a size of at least one byte, such as 8B or 64MiB");
    return *bytes;
}

std::vector<calibrate::CalibrationOp> ops_option(const std::string& text) {
    std::vector<calibrate::CalibrationOp> ops;
    for (size_t start = 0; !text.empty() && start <= text.size();) {
        const auto end = std::min(text.find(',', start), text.size());
        const std::string name = text.substr(start, end - start);
        const auto op = calibrate::parse_calibration_op(name);
        if (!op) {
            std::string list;
            for (auto known : calibrate::calibration_op_names()) list += (list.empty() ? "" : ", ") + std::string(known);
            throw InputError("--ops: unknown operation '" + name + "'; expected some of: " + list);
        }
        ops.push_back(*op);
        start = end + 1;
    }
    return ops;
}

struct CalibrateTexts {
    std::string min = "8B", max, ops;
};

}  // namespace

void add_calibrate_command(CLI::App& app, ChosenCommand& chosen, const std::vector<std::string>& argv) {
    auto options = std::make_shared<CalibrateOptions>();
    auto texts = std::make_shared<CalibrateTexts>();
    auto* command = app.add_subcommand("calibrate", "measure collectives, point-to-point and compute kernels");
    command->add_option("--backend", options->backend, "mpi (MPI + CPU) or nccl (NCCL + CUDA)")
        ->check(CLI::IsMember({"mpi", "nccl"}))
        ->capture_default_str();
    command->add_option("--out", options->out, "directory for samples.jsonl and environment.json")->required();
    command->add_flag("--quick", options->plan.quick, "a short sweep (minutes, not hours)");
    command->add_flag("--resume", options->resume, "keep the samples already in --out and take only the missing ones");
    command->add_option("--min", texts->min, "smallest message size")->capture_default_str();
    command->add_option("--max", texts->max, "largest message size (default 1GB on GPUs, 64MiB on CPUs; less with --quick)");
    command->add_option("--factor", options->plan.factor, "multiplicative step between sizes")
        ->check(CLI::Range(1.01, 1024.0))
        ->capture_default_str();
    command->add_option("--ops", texts->ops, "comma-separated subset of operations (default: all)");
    command->add_option("--target-time", options->target_seconds, "seconds of timed work per sample (default 0.02 quick, 0.2 full)")
        ->check(CLI::Range(1e-4, 60.0));
    command->add_flag("--print-plan", options->print_plan, "print the keys of the samples the plan would take, and exit");
    add_poll_interval_option(*command);
    command->callback([options, texts, argv, &chosen] {
        options->plan.min_bytes = size_option(texts->min, "--min");
        if (!texts->max.empty()) options->plan.max_bytes = size_option(texts->max, "--max");
        if (options->plan.max_bytes > 0 && options->plan.max_bytes < options->plan.min_bytes)
            throw InputError("--max " + texts->max + " is smaller than --min " + texts->min);
        options->plan.ops = ops_option(texts->ops);
        options->command_line = calibrate::calibration_command(argv);
        if (options->backend == "mpi") options->pinned_algorithms = pin_mpi_collective_algorithms();
        options->mpi_transport = set_mpi_tcp_eager_sends();
        chosen.run = [options](const MpiContext& context) { return run_calibrate(*options, context); };
    });
}

}  // namespace dtsim::runtime
