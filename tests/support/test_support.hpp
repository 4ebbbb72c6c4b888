#pragma once
// Helpers shared by the tests: running the dtsim executable, simulating in a child process (SimGrid's
// engine is process-wide), and temporary files.
#include <filesystem>
#include <string>
#include <vector>

#include "dtsim/profile.hpp"
#include "dtsim/run.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/sim/collective_replay.hpp"
#include "dtsim/temporary_directory.hpp"

namespace dtsim::test {

/// Whether the tests run instrumented (ASan + UBSan). There SimGrid runs its actors as threads, and large
/// simulations take 20-60 times their release time: a few tests leave their largest cases to the release
/// run, whose code paths the smaller cases still take under the sanitizers.
#ifdef __SANITIZE_ADDRESS__
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

struct CommandResult {
    int exit_code = -1;
    std::string output;  // stdout and stderr together
};

/// Runs a program (looked up on PATH) with these arguments.
CommandResult run_command(const std::string& program, const std::vector<std::string>& arguments);
/// Runs build/bin/dtsim with these arguments.
CommandResult run_dtsim(const std::vector<std::string>& arguments);
/// Runs build/bin/dtsim once per argument list, one process per core at a time; results in the lists' order.
std::vector<CommandResult> run_dtsim_each(const std::vector<std::vector<std::string>>& argument_lists);
/// How many times `word` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& word);
/// The path of build/bin/dtsim.
std::string dtsim_executable();
/// The path of build/bin/dtsim-runtime.
std::string runtime_executable();
/// `mpirun -np ranks dtsim-runtime ARGS` with the flags this machine needs (root, oversubscription).
CommandResult run_runtime(int ranks, const std::vector<std::string>& arguments);

/// Simulates in a forked child and returns the run (summary, iterations, spans).
Run simulate_in_child(const Scenario& scenario);

/// What a simulation in a forked child did: the point-to-point messages it sent (SimGrid communications,
/// whether between mailboxes or straight from host to host) and the spans its timeline recorded.
struct SimulationActivity {
    double messages = 0;
    double spans = 0;
};
SimulationActivity simulate_activity_in_child(const Scenario& scenario);

/// Replays collectives (sim::simulate_collectives) in a forked child and returns their times.
std::vector<double> simulate_collectives_in_child(const Scenario& scenario,
                                                  const std::vector<sim::CollectiveTrial>& trials);

/// The repository's root (for scenarios/ and tests/data/).
std::filesystem::path source_dir();

/// A fresh directory removed when the object dies.
using TempDir = TemporaryDirectory;

/// A measured profile named `name` whose only fit is a latency-mode ping-pong of `link_class` with these
/// segments (between two nodes for inter_node): the point-to-point model closed-form tests start from.
Profile pingpong_profile(const std::string& name, LinkClass link_class, std::vector<AlphaBetaSegment> segments);

/// A scenario quick to simulate, for command-line tests: two single-GPU nodes, an all-reduce of 100 MB,
/// two iterations; more keys can follow it (it ends with a line break).
std::string quick_scenario(const std::string& name);

/// Whether a shipped YAML file in scenarios/ is a `dtsim advise` study (it has `options:`) rather than a scenario.
bool is_advise_study(const std::filesystem::path& path);

/// The message of the InputError that loading this scenario text raises, or "" when it loads.
std::string scenario_load_error(const std::string& text, const std::string& file_label,
                                const std::vector<std::string>& overrides = {});

/// A file's whole text, or "" when it cannot be read (the tests then check what it should hold).
std::string read_file(const std::string& path);

/// The `# expect: <substring>` lines of the comment block that opens a bad-input corpus file: text its
/// refusal must contain.
std::vector<std::string> expectations(const std::filesystem::path& file);

/// A scenario for closed-form checks: star fabric, ideal network, one GPU per node, zero compute,
/// one bucket holding all gradients, one iteration.
std::string closed_form_scenario(int nodes, const std::string& strategy_yaml, const std::string& fidelity,
                                 double gradient_bytes, const std::string& nic_bandwidth, const std::string& nic_latency);

}  // namespace dtsim::test
