#pragma once
// bench/accuracy's seeded scenario generator: a set of data-parallel scenarios the testbed can measure,
// drawn so that no model change can be tuned to the set that then judges it (a fresh seed is drawn after
// the last change). The same seed gives the same files on every machine.
#include <cstdint>
#include <string>
#include <vector>

namespace dtsim::bench {

struct DrawnScenario {
    std::string file_name;  // "07-ps-ssp-2-servers.yaml": its number and what it runs
    std::string text;       // YAML; first line "# testbed: ..." (the rank layout), profile "@PROFILE_1@" or "@PROFILE_2@"
};

/// `count` scenarios (at least kMinimumDraw) drawn from `seed`: the first ones cover every strategy the
/// measured runtime executes (each all-reduce algorithm, sync/async/SSP servers with 1 and 2 servers, each
/// compression kind, stragglers, overlap off); the others draw every choice at random.
std::vector<DrawnScenario> draw_accuracy_scenarios(std::uint64_t seed, int count);

inline constexpr int kMinimumDraw = 18;  // the covering part

}  // namespace dtsim::bench
