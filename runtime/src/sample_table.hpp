#pragma once
// The tables `calibrate` prints while it runs: nccl-tests' columns for network operations (size, count,
// type, time, algbw, busbw; GB = 1e9 B), achieved rates for compute. A header starts each new group.
#include <ostream>
#include <string>

#include "dtsim/calibrate/plan.hpp"
#include "dtsim/calibrate/samples.hpp"

namespace dtsim::runtime {

class SampleTable {
public:
    SampleTable(std::ostream& out, bool enabled) : out_(out), enabled_(enabled) {}
    /// One row for a sample just taken, `done` of `total`, after a header when the group changes.
    void row(const calibrate::PlanItem& item, const calibrate::Sample& sample, int done, int total);

private:
    void header(const calibrate::PlanItem& item, const calibrate::Sample& sample);
    std::ostream& out_;
    bool enabled_;
    std::string group_;
};

}  // namespace dtsim::runtime
