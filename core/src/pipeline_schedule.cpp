#include "dtsim/pipeline_schedule.hpp"

#include <algorithm>

namespace dtsim {
namespace {

// The k-th forward (or backward) pass of an interleaved stage: microbatches go through the chunks in
// groups of `stages`; backwards visit the chunks last first.
PipelineOp interleaved_op(Pass pass, int k, int stages, int chunks) {
    const int group = k / (stages * chunks);
    const int in_group = k % (stages * chunks);
    int chunk = in_group / stages;
    if (pass == Pass::backward) chunk = chunks - 1 - chunk;
    return PipelineOp{pass, group * stages + in_group % stages, chunk};
}

std::vector<PipelineOp> one_f_one_b(int stages, int stage, int microbatches, int chunks, bool interleaved) {
    const int total = microbatches * chunks;
    int warmup = std::min(stages - stage - 1, total);
    if (interleaved)
        warmup = microbatches == stages ? total : std::min((stages - stage - 1) * 2 + (chunks - 1) * stages, total);
    auto op = [&](Pass pass, int k) { return interleaved ? interleaved_op(pass, k, stages, chunks) : PipelineOp{pass, k, 0}; };
    std::vector<PipelineOp> order;
    order.reserve(2 * static_cast<size_t>(total));
    for (int k = 0; k < warmup; ++k) order.push_back(op(Pass::forward, k));
    const int steady = total - warmup;
    for (int k = 0; k < steady; ++k) {
        order.push_back(op(Pass::forward, warmup + k));
        order.push_back(op(Pass::backward, k));
    }
    for (int k = steady; k < total; ++k) order.push_back(op(Pass::backward, k));
    return order;
}

}  // namespace

std::vector<PipelineOp> pipeline_order(PipelineSchedule schedule, int stages, int stage, int microbatches, int chunks) {
    switch (schedule) {
        case PipelineSchedule::gpipe: {
            std::vector<PipelineOp> order;
            for (int m = 0; m < microbatches; ++m) order.push_back({Pass::forward, m, 0});
            for (int m = 0; m < microbatches; ++m) order.push_back({Pass::backward, m, 0});
            return order;
        }
        case PipelineSchedule::one_f_one_b: return one_f_one_b(stages, stage, microbatches, 1, false);
        case PipelineSchedule::interleaved: return one_f_one_b(stages, stage, microbatches, chunks, true);
    }
    return {};
}

}  // namespace dtsim
