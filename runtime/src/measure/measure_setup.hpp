#pragma once
// What every executor of a measured run shares: the scenario and its buckets, who is a worker and who a
// server, the communicators, the aligned clock and the rank's timeline.
#include <mpi.h>

#include <atomic>
#include <cstddef>

#include "../device.hpp"
#include "../device_gradients.hpp"
#include "aligned_clock.hpp"
#include "dtsim/buckets.hpp"
#include "dtsim/cost_model.hpp"
#include "layer_gemms.hpp"
#include "modelled_compute.hpp"
#include "ring_allreduce.hpp"
#include "dtsim/scenario.hpp"
#include "span_log.hpp"

namespace dtsim::runtime {

struct MeasureSetup {
    const Scenario& scenario;
    const CostModel& costs;
    BucketPlan plan;
    int workers = 0;                    // world ranks 0..workers-1
    int servers = 0;                    // dedicated parameter servers: world ranks workers..workers+servers-1
    int rank = 0;                       // world rank
    MPI_Comm world = MPI_COMM_WORLD;
    MPI_Comm worker_comm = MPI_COMM_NULL;  // the workers alone (MPI_COMM_NULL on servers)
    AllReduceGroups groups;                // what the strategy's all-reduce runs over
    const AlignedClock& clock;
    SpanLog& log;
    ComputeMode compute = ComputeMode::busy;
    LayerGemms* gemms = nullptr;           // with ComputeMode::gemm: the layers' GEMMs on the device
    bool verify = false;                   // check every synchronised gradient against the known sum
    Device* device = nullptr;              // the rank's device: it holds modelled compute times (ComputeMode::busy)
    DeviceGradients* device_gradients = nullptr;  // GPU runs: the buckets on the device, all-reduced there
    std::atomic<std::size_t> wrong_sums{0};  // elements that failed the check, on this rank
};

}  // namespace dtsim::runtime
