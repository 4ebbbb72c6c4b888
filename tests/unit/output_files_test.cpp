#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "dtsim/input_error.hpp"
#include "dtsim/output_files.hpp"
#include "test_support.hpp"

namespace output_files_test {

using namespace dtsim;
namespace fs = std::filesystem;

namespace {

size_t files_in(const fs::path& folder) {
    return static_cast<size_t>(std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("write_file_atomically replaces a file whole or leaves the old one as it was", "[unit][outputs]") {
    test::TempDir dir;
    const auto path = dir.file("run.json");
    write_text_file(path, "old contents\n");
    chmod(path.c_str(), 0640);

    // A writer that fails half way: the old file stays, and nothing else is left in the folder.
    CHECK_THROWS_WITH(write_file_atomically(path,
                                            [](std::ostream& out) {
                                                out << "half of the new";
                                                throw std::runtime_error("the writer failed");
                                            }),
                      "the writer failed");
    CHECK(test::read_file(path) == "old contents\n");
    CHECK(files_in(dir.path()) == 1);

    write_text_file(path, "new contents\n");
    CHECK(test::read_file(path) == "new contents\n");
    CHECK(files_in(dir.path()) == 1);
    struct stat replaced {};
    REQUIRE(stat(path.c_str(), &replaced) == 0);
    CHECK((replaced.st_mode & 0777) == 0640);  // the file replaced keeps its permissions

    // Through a symbolic link the file it points to is replaced; the link stays a link.
    fs::create_symlink(path, dir.file("latest.json"));
    write_text_file(dir.file("latest.json"), "through the link\n");
    CHECK(fs::is_symlink(dir.file("latest.json")));
    CHECK(test::read_file(path) == "through the link\n");
}

TEST_CASE("prepare_output_files refuses an output that is an input or another output, by any name", "[unit][outputs]") {
    test::TempDir dir;
    std::ofstream(dir.file("s.yaml")) << "name: s\n";
    fs::create_hard_link(dir.file("s.yaml"), dir.file("hard-link.yaml"));
    const std::vector<InputFile> inputs{{"the scenario", dir.file("s.yaml")}};

    CHECK_THROWS_WITH(prepare_output_files({{"--json", dir.file("s.yaml")}}, inputs),
                      Catch::Contains("--json " + dir.file("s.yaml") + ": is the scenario this command reads"));
    CHECK_THROWS_AS(prepare_output_files({{"--json", dir.path().string() + "/sub/../s.yaml"}}, inputs), InputError);
    CHECK_THROWS_AS(prepare_output_files({{"--json", dir.file("hard-link.yaml")}}, inputs), InputError);
    // Two outputs that do not exist yet, named differently.
    CHECK_THROWS_WITH(prepare_output_files({{"--json", dir.file("out/a.json")}, {"--trace", dir.file("out/./a.json")}}),
                      Catch::Contains("--trace " + dir.file("out/./a.json") + ": is also the --json output"));
    CHECK_NOTHROW(prepare_output_files({{"--json", dir.file("out/a.json")}, {"--trace", dir.file("out/b.json")}, {"--db", ""}},
                                       inputs));
    CHECK(fs::is_directory(dir.file("out")));
    CHECK_FALSE(fs::exists(dir.file("out/a.json")));
}

}  // namespace output_files_test
