#include <memory>

#include "dtsim/input_error.hpp"
#include "dtsim/units.hpp"
#include "mpi_waiting.hpp"
#include "subcommands.hpp"

namespace dtsim::runtime {

void add_poll_interval_option(CLI::App& command) {
    command
        .add_option_function<std::string>(
            "--poll-interval",
            [](const std::string& text) {
                const auto poll = parse_seconds(text);
                if (!poll || *poll < 0 || *poll > 0.01)
                    throw InputError("--poll-interval: expected a duration from 0 to 10ms such as 20us, got '" + text + "'");
                set_wait_sleep(*poll);
            },
            "wait on MPI requests by testing them and sleeping this long in between, e.g. 20us, so that waiting ranks "
            "leave their cores to the network stack (hosts with more ranks than cores); 0: MPI's own blocking waits, "
            "which spin")
        ->default_str("0");
}

}  // namespace dtsim::runtime
