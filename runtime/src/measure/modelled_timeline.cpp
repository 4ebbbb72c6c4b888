#include "modelled_timeline.hpp"

namespace dtsim::runtime {

ModelledTimeline::ModelledTimeline(MeasureSetup& setup, int iteration)
    : setup_(setup), iteration_(iteration), free_s_(setup.clock.now()) {}

void ModelledTimeline::run(const char* name, int index, double seconds) {
    if (seconds <= 0) return;
    const double start = free_s_;
    free_s_ += seconds;
    // ComputeMode::sleep sleeps; otherwise the device holds (spins a core, or a kernel on a GPU).
    const double left = free_s_ - setup_.clock.now();
    if (setup_.compute == ComputeMode::sleep)
        hold_device(left, ComputeMode::sleep);
    else
        setup_.device->hold(left);
    setup_.log.add(Lane::compute, name, iteration_, index, start, free_s_);
}

void ModelledTimeline::resume() { free_s_ = setup_.clock.now(); }

}  // namespace dtsim::runtime
