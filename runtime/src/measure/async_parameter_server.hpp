#pragma once
// Asynchronous (Downpour) and stale-synchronous parameter servers as real ranks: each push is applied
// to the server's parameters the moment it arrives (a real sum) and the updated shard goes straight back
// to that worker; nobody waits for anybody. Under SSP a reply is held until the pushes the staleness bound
// needs have been applied (dtsim/shard_clock.hpp), and then carries the parameters of that moment. The
// version gap between the parameters a worker last pulled and those its gradient is applied to is its
// staleness, and the clocks that pull may have missed its staleness in clocks.
#include "measure_setup.hpp"

namespace dtsim::runtime {

void run_async_parameter_server(MeasureSetup& setup);

}  // namespace dtsim::runtime
