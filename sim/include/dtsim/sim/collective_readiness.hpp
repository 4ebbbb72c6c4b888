#pragma once
// How long each rank's compute took to produce its data for each synchronous collective, so that the
// time a rank spends blocked on the slowest worker can be told apart from the time its data spends on
// the network. Every rank calls the same collectives in the same order, so the n-th call of one rank and
// the n-th call of another are the same collective. An all-reduce needs every rank's data, so none can
// finish before the slowest rank's compute has produced it: until then a rank that reached the
// collective is waiting, not communicating. Only compute counts, measured from each rank's own
// iteration start: ranks that start an iteration apart because their last collective ended apart (a
// slower link, the order of a tree) are apart because of the network, and their peers' time blocked on
// that stays communication.
#include <cstddef>
#include <unordered_map>
#include <vector>

namespace dtsim::sim {

class CollectiveReadiness {
public:
    /// `ranks` take part in every collective; their rank numbers are below `rank_count` (after a node is
    /// dropped the survivors keep their numbers).
    CollectiveReadiness(int ranks, int rank_count) : ranks_(ranks), next_(static_cast<std::size_t>(rank_count), 0) {}

    /// `rank`'s data for its next collective took `compute_s` of compute since its iteration began and
    /// was ready at `ready_s`; returns that collective's number.
    long long ready(int rank, double compute_s, double ready_s);
    /// After collective `number`, which a rank whose data took `compute_s` began at `start_s` and ended
    /// at `end_s`: until when it waited for the slowest rank's compute. That is the slowest rank's extra
    /// compute after `start_s`, but never past the moment the last rank's data was ready, nor past the
    /// end (a collective that goes on without a late rank does not wait for it). Each rank asks once per
    /// collective; the record is dropped when all have asked.
    double waited_until(long long number, double compute_s, double start_s, double end_s);

private:
    struct Entry {
        double last_ready_s = 0;
        double longest_compute_s = 0;
        int asked = 0;
    };
    int ranks_;
    std::vector<long long> next_;  // per rank: the number of its next collective
    std::unordered_map<long long, Entry> entries_;
};

}  // namespace dtsim::sim
