// accuracy_draw: writes bench/accuracy's seeded scenario set into a folder (bench/accuracy/run.sh --draw SEED).
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "scenario_draw.hpp"

namespace {

bool parse_number(const char* text, unsigned long long& value) {
    if (!text || !*text || *text == '-') return false;
    char* end = nullptr;
    errno = 0;
    value = std::strtoull(text, &end, 10);
    return errno == 0 && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
    unsigned long long seed = 0, count = 0;
    if (argc != 4 || !parse_number(argv[1], seed) || !parse_number(argv[2], count) || count > 1000) {
        std::cerr << "usage: accuracy_draw SEED COUNT FOLDER   (COUNT from " << dtsim::bench::kMinimumDraw << " to 1000)\n";
        return 2;
    }
    try {
        const std::filesystem::path folder = argv[3];
        std::filesystem::create_directories(folder);
        for (const auto& scenario : dtsim::bench::draw_accuracy_scenarios(seed, static_cast<int>(count))) {
            std::ofstream file(folder / scenario.file_name);
            file << scenario.text;
            if (!file.flush()) {
                std::cerr << "accuracy_draw: cannot write " << (folder / scenario.file_name).string() << '\n';
                return 1;
            }
        }
    } catch (const std::exception& error) {
        std::cerr << "accuracy_draw: " << error.what() << '\n';
        return 2;
    }
    return 0;
}
