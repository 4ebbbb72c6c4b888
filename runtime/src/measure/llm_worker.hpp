#pragma once
// One worker of an LLM layout (docs/llm.md): its pipeline stage's passes in the schedule's order
// (pipeline_order), each layer's modelled compute with its tensor-parallel, context and expert collectives
// on the critical path, activations and gradients sent to the neighbouring stages, and the gradients
// reduced over the data-parallel groups as the ZeRO stage says:
//   ZeRO-0: all-reduce in the last microbatch's backward;  ZeRO-1: reduce-scatter there;
//   ZeRO-2/3: reduce-scatter in every microbatch's backward;  ZeRO-1/2: all-gather of the parameters
//   after the optimizer step;  ZeRO-3: all-gather of each layer's parameters before its forward and its
//   backward (the next layer's during this one's compute with prefetch).
// Threads, as a framework's streams: the main thread computes and runs the collectives on the critical
// path; one thread reduces gradients (overlapped with backward), one gathers ZeRO-3 parameters, and one
// per direction sends pipeline messages. Each collective thread has a LayoutChannel of its own.
#include <functional>
#include <memory>

#include "../layout_channel.hpp"
#include "dtsim/parallel_layout.hpp"
#include "measure_setup.hpp"

namespace dtsim::runtime {

/// Collective over the workers: a channel for one thread (every worker asks for as many, in the same order).
using LayoutChannelFactory = std::function<std::unique_ptr<LayoutChannel>(const ParallelLayout&)>;

void run_llm_worker(MeasureSetup& setup, const LayoutChannelFactory& make_channel);

}  // namespace dtsim::runtime
