#pragma once
// What simulating a scenario takes before it runs (docs/scenario.md, "Size of a simulation"): the hosts its
// platform builds and the spans its timeline records, and the memory they need at the least. A scenario that
// clearly cannot fit in this machine's memory is refused when it loads, not ended by std::bad_alloc inside
// SimGrid; a large one has its estimate printed.
#include <cstdint>
#include <optional>
#include <string>

namespace dtsim {

struct Scenario;

/// Memory at the least, from rates measured in bench/results/sim-scale.md.
struct SimulationFootprint {
    double hosts = 0;  // GPUs and dedicated parameter servers: each a host, its links, routes and actors
    double spans = 0;  // timeline spans, at the least: a forward and a backward per microbatch, rank and iteration
    double platform_bytes = 0;  // the hosts, and what a simulation needs whatever its size
    double timeline_bytes = 0;  // the spans
    double bytes() const { return platform_bytes + timeline_bytes; }
};

SimulationFootprint estimate_footprint(const Scenario& scenario);

/// "about 1.2 GB (16 384 hosts, 2.6 M timeline spans)"
std::string describe(const SimulationFootprint& footprint);

/// The machine's physical memory, in bytes (0 when unknown).
std::uint64_t physical_memory_bytes();

/// From this size on (about 8000 GPUs), `dtsim simulate` prints the estimate before it starts.
inline constexpr double kLargeFootprintBytes = 128e6;
/// From this many messages on (SimGrid's communications, simulation_events.hpp) it prints it too: minutes of
/// simulation (bench/results/sim-scale.md: 1024 GPUs in step fidelity, 8.4 M messages, took 102 s).
inline constexpr double kLargeMessageCount = 1e7;

/// "a large run: simulating it needs at least ... of memory and sends about ... messages" for a scenario whose
/// estimate reaches kLargeFootprintBytes or kLargeMessageCount.
std::optional<std::string> large_run_note(const Scenario& scenario);

}  // namespace dtsim
