#pragma once
// A rank's device running modelled compute spans (modelled_compute.hpp) within one iteration. It runs the
// spans it is given back to back, as a GPU runs its queued kernels: each starts where the previous one
// ended, not when the calling thread woke up from it. On a busy host wake-ups come late, and holds counted
// from them would add up (the accuracy bench's top-k scenario, 5 ranks on 2 cores: 90 ms of compute took
// up to 112 ms). Where the rank waited on communication in between, the device idled: the next span
// starts when the wait ended.
#include "measure_setup.hpp"

namespace dtsim::runtime {

class ModelledTimeline {
public:
    ModelledTimeline(MeasureSetup& setup, int iteration);
    /// Holds the device for `seconds` after its previous span and records the span on the compute lane.
    void run(const char* name, int index, double seconds);
    /// The rank waited for something: the device's next span starts now.
    void resume();

private:
    MeasureSetup& setup_;
    int iteration_;
    double free_s_;  // when the device finishes what it was given
};

}  // namespace dtsim::runtime
