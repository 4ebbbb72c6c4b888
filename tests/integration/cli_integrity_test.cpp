// What a command reads and what it has stored are never lost: an output never replaces an input or another
// output, a run is stored before its files are written, names are printed escaped, a database is read where
// it cannot be written, run ids are parsed strictly, and an interrupted sweep takes its simulations and its
// scratch folder with it.
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace cli_integrity_test {

using namespace dtsim;
namespace fs = std::filesystem;

namespace {

// A database with `count` runs of the quick scenario named `name`.
std::string database_with_runs(const test::TempDir& dir, const std::string& name, int count) {
    std::ofstream(dir.file(name + ".yaml")) << test::quick_scenario(name);
    const auto db = dir.file("runs.db");
    for (int i = 0; i < count; ++i) {
        const auto stored = test::run_dtsim({"simulate", dir.file(name + ".yaml"), "--db", db, "--quiet"});
        REQUIRE(stored.exit_code == 0);
    }
    return db;
}

void run_sql(const std::string& db_path, const std::string& sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(db_path.c_str(), &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
}

// dtsim as a user who cannot write where root could: under root, the unprivileged `nobody` (setpriv).
std::optional<test::CommandResult> run_dtsim_unprivileged(const std::vector<std::string>& arguments) {
    if (geteuid() != 0) return test::run_dtsim(arguments);
    if (!fs::exists("/usr/bin/setpriv")) return std::nullopt;
    std::vector<std::string> all{"--reuid=65534", "--regid=65534", "--clear-groups", test::dtsim_executable()};
    all.insert(all.end(), arguments.begin(), arguments.end());
    return test::run_command("/usr/bin/setpriv", all);
}

// The processes whose parent is `parent`.
std::vector<pid_t> children_of(pid_t parent) {
    std::vector<pid_t> children;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const auto name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        const auto stat = test::read_file((entry.path() / "stat").string());
        const auto after_name = stat.rfind(')');
        if (after_name == std::string::npos) continue;
        std::istringstream fields(stat.substr(after_name + 1));
        std::string state;
        pid_t ppid = 0;
        fields >> state >> ppid;
        if (ppid == parent) children.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return children;
}

bool is_alive(pid_t pid) { return kill(pid, 0) == 0 || errno != ESRCH; }

}  // namespace

TEST_CASE("an output that is an input of the command or another of its outputs is refused, and nothing is touched",
          "[integration][cli][outputs]") {
    test::TempDir dir;
    const auto db = database_with_runs(dir, "small", 1);
    const auto scenario = dir.file("small.yaml");
    const auto scenario_text = test::read_file(scenario);
    auto refused = [&](const std::vector<std::string>& arguments, const std::string& message) {
        const auto result = test::run_dtsim(arguments);
        CAPTURE(arguments, result.output);
        CHECK(result.exit_code == 2);
        CHECK_THAT(result.output, Catch::Contains(message));
    };

    refused({"simulate", scenario, "--json", db, "--db", db}, "--db " + db + ": is also the --json output");
    refused({"simulate", scenario, "--trace", scenario}, "--trace " + scenario + ": is the scenario this command reads");
    refused({"simulate", scenario, "--json", dir.path().string() + "/./small.yaml"}, "is the scenario this command reads");
    refused({"simulate", scenario, "--db", scenario}, "--db " + scenario + ": is the scenario");
    refused({"simulate", scenario, "--json", dir.file("a.json"), "--trace", dir.file("a.json")}, "is also the --json output");
    refused({"sweep", scenario, "--vary", "cluster.nodes=1,2", "--json", scenario}, "is the scenario this command reads");
    refused({"runs", "export", "--csv", db, "--db", db}, "is the runs database this command reads");
    refused({"validate", scenario, "--db", db, "--json", db}, "is the runs database this command reads");

    const auto profile = dir.file("profile.json");
    fs::copy_file(test::source_dir() / "data" / "profiles" / "dgx-h100.datasheet.json", profile);
    const auto profile_text = test::read_file(profile);
    refused({"simulate", scenario, "--set", "profile=" + profile, "--set", "profile_mismatch=allow", "--json", profile},
            "is the scenario's profile this command reads");
    CHECK(test::read_file(profile) == profile_text);

    // The model file `model.zoo` names, in the zoo's format or a Hugging Face config.json, is read too.
    const auto zoo_file = dir.file("resnet.yaml");
    fs::copy_file(test::source_dir() / "data" / "models" / "resnet50.yaml", zoo_file);
    const auto zoo_text = test::read_file(zoo_file);
    const auto with_zoo = dir.file("with-zoo.yaml");
    std::ofstream(with_zoo) << "name: with-zoo\ncluster: {nodes: 2, gpus_per_node: 1, gpu: h100-sxm, intra_node: nvlink4, "
                               "nic: ib-ndr}\nmodel: {zoo: ./resnet.yaml, batch_per_gpu: 32}\ntraining: {iterations: 1, strategy: {kind: allreduce}}\n";
    refused({"simulate", with_zoo, "--json", zoo_file}, "--json " + zoo_file + ": is the scenario's model file this command reads");
    refused({"sweep", with_zoo, "--vary", "cluster.nodes=1,2", "--db", zoo_file}, "is the scenario's model file");
    CHECK(test::read_file(zoo_file) == zoo_text);
    const auto config = dir.file("config.json");
    std::ofstream(config) << R"({"model_type": "gpt2", "n_embd": 768, "n_head": 12, "n_inner": null, "n_layer": 12,
        "n_positions": 1024, "vocab_size": 50257})";
    const auto config_text = test::read_file(config);
    refused({"simulate", with_zoo, "--set", "model.zoo=" + config, "--trace", config}, "is the scenario's model file");
    CHECK(test::read_file(config) == config_text);
    // So are the hardware presets, in a copy of the data folder lest a failure destroy the source tree's.
    fs::copy(test::source_dir() / "data", dir.file("data"), fs::copy_options::recursive);
    const auto preset = dir.file("data/hardware/network/ib-ndr.yaml");
    const auto preset_text = test::read_file(preset);
    setenv("DTSIM_DATA_DIR", dir.file("data").c_str(), 1);
    refused({"simulate", scenario, "--json", preset}, "--json " + preset + ": is a hardware preset this command reads");
    unsetenv("DTSIM_DATA_DIR");
    CHECK(test::read_file(preset) == preset_text);

    fs::create_directories(dir.file("cal"));
    std::ofstream(dir.file("cal/samples.jsonl")) << "kept\n";
    refused({"fit", dir.file("cal"), "--out", dir.file("cal/samples.jsonl")}, "is the calibration's samples this command reads");
    CHECK(test::read_file(dir.file("cal/samples.jsonl")) == "kept\n");

    CHECK(test::read_file(scenario) == scenario_text);
    CHECK_FALSE(fs::exists(dir.file("a.json")));
    const auto list = test::run_dtsim({"runs", "list", "--db", db});
    CAPTURE(list.output);
    CHECK(list.exit_code == 0);
    CHECK_THAT(list.output, Catch::Contains("small"));
}

TEST_CASE("a run is stored before its files are written: a file that cannot be written loses no run",
          "[integration][cli][outputs]") {
    test::TempDir dir;
    std::ofstream(dir.file("small.yaml")) << test::quick_scenario("small");
    // /dev/full takes the file and fails every write: the failure comes after the paths were checked.
    const auto result = test::run_dtsim({"simulate", dir.file("small.yaml"), "--db", dir.file("ok.db"), "--json", "/dev/full"});
    CAPTURE(result.output);
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.output, Catch::Contains("/dev/full: cannot write"));
    CHECK_THAT(result.output, Catch::Contains("the run is stored as run 1 in " + dir.file("ok.db")));
    const auto show = test::run_dtsim({"runs", "show", "1", "--db", dir.file("ok.db")});
    CAPTURE(show.output);
    CHECK(show.exit_code == 0);
    CHECK_THAT(show.output, Catch::Contains("run 1: small"));
}

TEST_CASE("names are printed escaped, damaged rows are skipped, and a label that is not UTF-8 is refused",
          "[integration][cli][runs]") {
    test::TempDir dir;
    // A name with an escape sequence (YAML's \e is ESC) that would turn a terminal red.
    std::ofstream(dir.file("esc.yaml")) << test::quick_scenario("\"esc\\e[31mred\"");
    const auto db = dir.file("runs.db");
    for (const char* label : {"first", "\x07" "bell", "third"}) {
        const auto stored = test::run_dtsim({"simulate", dir.file("esc.yaml"), "--db", db, "--label", label, "--quiet"});
        CAPTURE(stored.output);
        REQUIRE(stored.exit_code == 0);
    }
    // By hand: run 1's summary is not JSON, run 3's name holds bytes that are not UTF-8.
    run_sql(db, "UPDATE runs SET summary_json = 'not json' WHERE id = 1");
    run_sql(db, "UPDATE runs SET scenario_name = CAST(X'6E616D65FF1B5B324A' AS TEXT) WHERE id = 3");

    const auto list = test::run_dtsim({"runs", "list", "--db", db});
    CAPTURE(list.output);
    CHECK(list.exit_code == 0);
    CHECK_THAT(list.output, Catch::Contains("run 1 cannot be read"));
    CHECK_THAT(list.output, Catch::Contains("esc\\x1b[31mred"));
    CHECK_THAT(list.output, Catch::Contains("\\x07bell"));
    CHECK_THAT(list.output, Catch::Contains("name\\xff\\x1b[2J"));
    CHECK(list.output.find('\x1b') == std::string::npos);
    CHECK(list.output.find('\x07') == std::string::npos);

    const auto show = test::run_dtsim({"runs", "show", "2", "--db", db});
    CAPTURE(show.output);
    CHECK(show.exit_code == 0);
    CHECK_THAT(show.output, Catch::Contains("run 2: esc\\x1b[31mred"));
    CHECK(show.output.find('\x1b') == std::string::npos);
    CHECK(show.output.find('\x07') == std::string::npos);

    const auto latin1 = test::run_dtsim({"simulate", dir.file("esc.yaml"), "--label", "caf\xe9", "--db", db});
    CAPTURE(latin1.output);
    CHECK(latin1.exit_code == 2);
    CHECK_THAT(latin1.output, Catch::Contains("command line: --label: expected UTF-8 text, got the byte 0xe9"));
}

TEST_CASE("reading commands read a database in a folder they cannot write", "[integration][cli][runs]") {
    test::TempDir dir;
    const auto folder = dir.file("readonly");
    fs::create_directories(folder);
    std::ofstream(dir.file("small.yaml")) << test::quick_scenario("small");
    const auto db = folder + "/runs.db";
    REQUIRE(test::run_dtsim({"simulate", dir.file("small.yaml"), "--db", db, "--quiet"}).exit_code == 0);
    fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                    fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"runs", "list", "--db", db}, {"runs", "show", "1", "--db", db},
          {"runs", "export", "--csv", "--db", db}, {"compare", "1", "1", "--db", db}}) {
        const auto result = run_dtsim_unprivileged(command);
        if (!result) {
            WARN("running as root without setpriv: no unprivileged user to read as");
            break;
        }
        CAPTURE(command, result->output);
        CHECK(result->exit_code == 0);
        CHECK_THAT(result->output, Catch::Contains("small"));
    }
    CHECK(std::vector<fs::path>(fs::directory_iterator(folder), fs::directory_iterator()) == std::vector<fs::path>{db});
    fs::permissions(folder, fs::perms::owner_all);  // so that the temporary folder can be removed
}

TEST_CASE("runs show and compare take a run id strictly; a missing run is invalid input", "[integration][cli][runs]") {
    test::TempDir dir;
    const auto db = database_with_runs(dir, "small", 1);
    const auto missing = test::run_dtsim({"runs", "show", "999", "--db", db});
    CAPTURE(missing.output);
    CHECK(missing.exit_code == 2);
    CHECK_THAT(missing.output, Catch::Contains("run 999: no run with this id in " + db));
    for (const char* id : {"0", "", "99999999999999999999", "1x", "+1"}) {
        const auto result = test::run_dtsim({"runs", "show", id, "--db", db});
        CAPTURE(id, result.output);
        CHECK(result.exit_code == 2);
        CHECK_THAT(result.output, Catch::Contains("expected a whole number from 1 to 9223372036854775807"));
    }
    CHECK(test::run_dtsim({"runs", "show", "-1", "--db", db}).exit_code == 2);
    const auto compare = test::run_dtsim({"compare", "0", "1", "--db", db});
    CAPTURE(compare.output);
    CHECK(compare.exit_code == 2);
    CHECK_THAT(compare.output, Catch::Contains("run id '0': expected a whole number"));
}

TEST_CASE("an interrupted sweep stops its simulations and removes its scratch folder", "[integration][cli][sweep]") {
    test::TempDir dir;
    const auto scratch_parent = dir.file("tmp");
    fs::create_directories(scratch_parent);
    std::ofstream(dir.file("slow.yaml")) << test::quick_scenario("slow");
    const pid_t sweep = fork();
    REQUIRE(sweep >= 0);
    if (sweep == 0) {
        setenv("TMPDIR", scratch_parent.c_str(), 1);
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        // Two points of 256 GPUs, every message simulated: long enough to be interrupted.
        const std::string executable = test::dtsim_executable(), scenario = dir.file("slow.yaml");
        execl(executable.c_str(), executable.c_str(), "sweep", scenario.c_str(), "--vary", "cluster.nodes=256,257", "--set",
              "training.fidelity=step", "--jobs", "2", "--quiet", static_cast<char*>(nullptr));
        _exit(127);
    }
    std::vector<pid_t> simulations;
    for (int tries = 0; tries < 600 && simulations.size() < 2; ++tries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        simulations = children_of(sweep);
    }
    REQUIRE(simulations.size() == 2);
    REQUIRE(std::distance(fs::directory_iterator(scratch_parent), fs::directory_iterator()) == 1);

    kill(sweep, SIGINT);  // the sweep alone, as `kill -INT` does; a terminal's Ctrl+C reaches the whole group
    int status = 0;
    REQUIRE(waitpid(sweep, &status, 0) == sweep);
    CHECK(WIFSIGNALED(status));
    CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGINT));
    for (const pid_t simulation : simulations) {
        if (!is_alive(simulation)) continue;
        FAIL_CHECK("simulation " << simulation << " still runs after its sweep was interrupted");
        kill(simulation, SIGKILL);  // leave nothing running
    }
    CHECK(fs::is_empty(scratch_parent));
}

}  // namespace cli_integrity_test
