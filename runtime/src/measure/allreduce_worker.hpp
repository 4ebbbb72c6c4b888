#pragma once
// A worker of synchronous data-parallel training with ring all-reduce: compute on this thread, each
// ready bucket all-reduced on the communication thread (real sums of real gradient buffers), in fp32 or,
// with `compression: {kind: fp16}`, cast to fp16 and summed in fp16, with `{kind: int8}` quantized in
// the ring (ring_allreduce.hpp), with `{kind: powersgd}` as two all-reduced low-rank factors
// (powersgd.hpp), or with `{kind: topk}` sparsified
// (error feedback as the scenario says) and all-gathered as (index, value) pairs, then summed.
#include "measure_setup.hpp"

namespace dtsim::runtime {

void run_allreduce_worker(MeasureSetup& setup);

}  // namespace dtsim::runtime
