#pragma once
// When each rank's compute produced its data for each synchronous collective, so that the time a rank
// spends blocked on the slowest worker can be told apart from the time its data spends on the network.
// Every rank calls the same collectives in the same order, so the n-th call of one rank and the n-th
// call of another are the same collective. An all-reduce needs every rank's data, so none can finish
// before the last rank's compute has produced it: until then a rank that reached the collective is
// waiting, not communicating. Only compute counts: a rank that reaches a collective late because its
// previous collective ended late (a slower link) was communicating, and its peers do not wait on it.
#include <cstddef>
#include <unordered_map>
#include <vector>

namespace dtsim::sim {

class CollectiveReadiness {
public:
    explicit CollectiveReadiness(int ranks) : ranks_(ranks), next_(static_cast<std::size_t>(ranks), 0) {}

    /// `rank`'s data for its next collective is computed at `ready_s`; returns that collective's number.
    long long ready(int rank, double ready_s);
    /// After collective `number` ended for `rank` at `end_s`: until when it waited for the last rank's
    /// data to be computed (never past its end: a collective that goes on without a late rank does not
    /// wait for it). Each rank asks once per collective; the record is dropped when all have asked.
    double waited_until(long long number, double end_s);

private:
    struct Entry {
        double last_ready_s = 0;
        int asked = 0;
    };
    int ranks_;
    std::vector<long long> next_;  // per rank: the number of its next collective
    std::unordered_map<long long, Entry> entries_;
};

}  // namespace dtsim::sim
