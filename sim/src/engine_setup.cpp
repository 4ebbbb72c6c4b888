#include "dtsim/sim/engine_setup.hpp"

#include <xbt/log.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "dtsim/sim/platform.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

std::unique_ptr<sg4::Engine> start_engine(int actors, NetworkModel model) {
    char name[] = "dtsim";
#if defined(__SANITIZE_ADDRESS__)
    // SimGrid's stack switching confuses AddressSanitizer; threads are slower but clean. The context
    // factory is chosen when the engine starts, so it is passed as an engine argument.
    char factory[] = "--cfg=contexts/factory:thread";
    char* argv[] = {name, factory, nullptr};
    int argc = 2;
#else
    char* argv[] = {name, nullptr};
    int argc = 1;
#endif
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
    // A flow simulation allocates and frees small SimGrid objects (activities, simcalls, solver
    // variables) by the million, among larger blocks whose allocation makes glibc consolidate its fast
    // bins each time: without fast bins (the thread cache still serves small blocks) the 1024-GPU FSDP
    // layout of bench/plan simulates in 35 s instead of 50 s, with the same results (bench/results/plan.md).
    mallopt(M_MXFAST, 0);
#endif
    xbt_log_control_set("root.thresh:critical");
    auto engine = std::make_unique<sg4::Engine>(&argc, argv);
    // SimGrid's own deadlock dump is replaced by ours, which names ranks and what they wait for.
    xbt_log_control_set("ker_engine.app:file:/dev/null");
    // Actors keep little on their stacks (64 KiB leaves a wide margin); small stacks keep 16k-rank runs
    // within memory.
    sg4::Engine::set_config("contexts/stack-size:64");
    // SimGrid 3.32's default lazy network update gives wrong shares when several flows that share a
    // bottleneck start together (found with two parameter servers: flows to the second server ignored
    // its link); the full update is exact.
    sg4::Engine::set_config("network/optim:Full");
    // Guard pages cost one memory mapping each and cap a run near 32k actors (vm.max_map_count).
    if (actors > 16000) sg4::Engine::set_config("contexts/guard-size:0");
    configure_network_model(model);
    return engine;
}

}  // namespace dtsim::sim
