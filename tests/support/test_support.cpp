#include "test_support.hpp"

#include <simgrid/s4u/Comm.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <yaml-cpp/yaml.h>

#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/sim/simulation.hpp"

namespace dtsim::test {

std::filesystem::path source_dir() { return DTSIM_TEST_SOURCE_DIR; }

namespace {

std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

}  // namespace

std::string dtsim_executable() { return DTSIM_EXECUTABLE; }

CommandResult run_dtsim(const std::vector<std::string>& arguments) { return run_command(DTSIM_EXECUTABLE, arguments); }

std::vector<CommandResult> run_dtsim_each(const std::vector<std::vector<std::string>>& argument_lists) {
    std::vector<CommandResult> results(argument_lists.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i = next++; i < argument_lists.size(); i = next++) results[i] = run_dtsim(argument_lists[i]);
    };
    std::vector<std::thread> threads(std::max(1U, std::thread::hardware_concurrency()));
    for (auto& thread : threads) thread = std::thread(work);
    for (auto& thread : threads) thread.join();
    return results;
}

std::string runtime_executable() { return DTSIM_RUNTIME_EXECUTABLE; }

CommandResult run_runtime(int ranks, const std::vector<std::string>& arguments) {
    std::vector<std::string> all{"--allow-run-as-root", "--oversubscribe", "-np", std::to_string(ranks), DTSIM_RUNTIME_EXECUTABLE};
    all.insert(all.end(), arguments.begin(), arguments.end());
    return run_command("mpirun", all);
}

CommandResult run_command(const std::string& program, const std::vector<std::string>& arguments) {
    std::string command = shell_quote(program);
    for (const auto& a : arguments) command += " " + shell_quote(a);
    command += " 2>&1";
    CommandResult result;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot run " + command);
    std::array<char, 4096> buffer{};
    size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
    const int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

namespace {

// Runs `work` in a forked child: SimGrid's engine starts once per process.
void run_in_child(const std::function<void()>& work) {
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        int code = 0;
        try {
            work();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "simulation failed: %s\n", e.what());
            code = 1;
        }
        _exit(code);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("simulation child failed");
}

}  // namespace

Run simulate_in_child(const Scenario& scenario) {
    TempDir dir;
    const auto db = dir.file("child.db");
    run_in_child([&] {
        auto run = sim::simulate(scenario);
        RunStore store(db);
        store.append(run);
    });
    RunStore store(db);
    auto run = store.load(1);
    if (!run) throw std::runtime_error("simulation child stored nothing");
    return *run;
}

SimulationActivity simulate_activity_in_child(const Scenario& scenario) {
    TempDir dir;
    const auto results = dir.file("activity.txt");
    run_in_child([&] {
        // A message between mailboxes is sent (on_send); one from host to host has no mailbox, and is counted
        // when it completes.
        double messages = 0;
        simgrid::s4u::Comm::on_send_cb([&](const simgrid::s4u::Comm&) { ++messages; });
        simgrid::s4u::Activity::on_completion_cb([&](const simgrid::s4u::Activity& activity) {
            const auto* comm = dynamic_cast<const simgrid::s4u::Comm*>(&activity);
            if (comm && !comm->get_mailbox()) ++messages;
        });
        const auto run = sim::simulate(scenario);
        std::ofstream(results) << messages << " " << run.spans.size() << "\n";
    });
    SimulationActivity activity;
    if (!(std::ifstream(results) >> activity.messages >> activity.spans))
        throw std::runtime_error("simulation child did not count its activity");
    return activity;
}

std::vector<double> simulate_collectives_in_child(const Scenario& scenario,
                                                  const std::vector<sim::CollectiveTrial>& trials) {
    TempDir dir;
    const auto results = dir.file("times.txt");
    run_in_child([&] {
        std::ofstream out(results);
        out.precision(17);
        for (double seconds : sim::simulate_collectives(scenario, trials)) out << seconds << "\n";
    });
    std::ifstream in(results);
    std::vector<double> times;
    for (double seconds; in >> seconds;) times.push_back(seconds);
    if (times.size() != trials.size()) throw std::runtime_error("collective replay child did not write one time per trial");
    return times;
}

std::size_t occurrences(const std::string& text, const std::string& word) {
    std::size_t count = 0;
    for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++count;
    return count;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string scenario_load_error(const std::string& text, const std::string& file_label,
                                const std::vector<std::string>& overrides) {
    try {
        load_scenario_text(text, file_label, overrides);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::vector<std::string> expectations(const std::filesystem::path& file) {
    const std::string prefix = "# expect: ";
    std::vector<std::string> expected;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.rfind("#", 0) != 0) break;
        if (line.rfind(prefix, 0) == 0) expected.push_back(line.substr(prefix.size()));
    }
    return expected;
}

bool is_advise_study(const std::filesystem::path& path) {
    const auto document = YAML::LoadFile(path.string());
    return document.IsMap() && document["options"].IsDefined();
}

std::string quick_scenario(const std::string& name) {
    return "name: " + name + R"(
cluster: {nodes: 2, gpus_per_node: 1, gpu: h100-sxm, nic: ib-ndr}
model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 32}
training:
  iterations: 2
  strategy: {kind: allreduce, algorithm: ring}
)";
}

std::string closed_form_scenario(int nodes, const std::string& strategy_yaml, const std::string& fidelity,
                                 double gradient_bytes, const std::string& nic_bandwidth, const std::string& nic_latency) {
    std::ostringstream yaml;
    yaml.precision(17);
    yaml << "name: closed-form\n"
         << "cluster:\n  nodes: " << nodes << "\n  gpus_per_node: 1\n  gpu: h100-sxm\n"
         << "  nic: {bandwidth: " << nic_bandwidth << ", latency: " << nic_latency << "}\n"
         << "  fabric: {topology: star}\n  network_model: ideal\n"
         << "model: {gradient_bytes: " << gradient_bytes << ", forward_time: 0s, backward_time: 0s, batch_per_gpu: 1, layers: 1}\n"
         << "training:\n  iterations: 1\n  fidelity: " << fidelity << "\n  strategy: " << strategy_yaml << "\n";
    return yaml.str();
}

Profile pingpong_profile(const std::string& name, LinkClass link_class, std::vector<AlphaBetaSegment> segments) {
    Profile profile;
    profile.name = name;
    profile.source = "measured";
    profile.environment_json = "{}";
    NetworkFit fit;
    fit.op = NetworkOp::pingpong;
    fit.mode = TimingMode::latency;
    fit.link_class = link_class;
    fit.nodes = link_class == LinkClass::inter_node ? 2 : 1;
    fit.model.segments = std::move(segments);
    profile.network.push_back(std::move(fit));
    return profile;
}

}  // namespace dtsim::test
