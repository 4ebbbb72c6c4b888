#pragma once
// Parameter servers as real ranks. A worker pushes each ready bucket's shards to their servers from its
// communication thread and, once all are pushed, pulls the updated shards back (under SSP a server may hold
// them back until the pushes the staleness bound needs are in: shard_clock.hpp). A synchronous server receives a shard from every worker,
// sums them (the aggregation is real) and sends the sum back to every worker, bucket after bucket,
// without waiting for its sends before the next bucket's receives. Asynchronous servers:
// async_parameter_server.hpp.
#include "measure_setup.hpp"

namespace dtsim::runtime {

void run_parameter_server_worker(MeasureSetup& setup);
void run_sync_parameter_server(MeasureSetup& setup);

}  // namespace dtsim::runtime
