// Stale-synchronous reads: which replies a server lets go after each applied push.
#include <catch2/catch.hpp>

#include "dtsim/shard_clock.hpp"

namespace shard_clock_test {

using dtsim::ShardClock;
using Workers = std::vector<int>;

TEST_CASE("without a bound every reply goes at once", "[unit][parameter-server]") {
    ShardClock clock(std::nullopt, 3, 0);
    CHECK(clock.applied(0, 0) == Workers{0});
    CHECK(clock.applied(0, 1) == Workers{0});
    CHECK(clock.applied(0, 2) == Workers{0});
    CHECK(clock.complete() == 0);  // workers 1 and 2 have pushed nothing
    CHECK(clock.applied(1, 0) == Workers{1});
    CHECK(clock.applied(2, 0) == Workers{2});
    CHECK(clock.complete() == 1);
}

TEST_CASE("staleness 0 holds every reply until the round's last push", "[unit][parameter-server]") {
    ShardClock clock(0, 3, 5);
    CHECK(clock.applied(2, 5).empty());
    CHECK(clock.applied(0, 5).empty());
    CHECK(clock.complete() == 5);
    CHECK(clock.applied(1, 5) == Workers{0, 1, 2});
    CHECK(clock.complete() == 6);
    CHECK(clock.applied(1, 6).empty());
}

TEST_CASE("staleness s lets a worker run s clocks ahead of the slowest push", "[unit][parameter-server]") {
    ShardClock clock(2, 2, 0);
    // Worker 1 never pushes: worker 0's replies to clocks 0 and 1 go (its reads at clocks 1 and 2 may
    // miss clocks 0 and 1, as s = 2 allows); its reply to clock 2 (the read at clock 3) needs clock 0 complete.
    CHECK(clock.applied(0, 0) == Workers{0});
    CHECK(clock.applied(0, 1) == Workers{0});
    CHECK(clock.applied(0, 2).empty());
    CHECK(clock.applied(1, 0) == Workers{0, 1});
    CHECK(clock.complete() == 1);
    CHECK(clock.applied(1, 1) == Workers{1});
    CHECK(clock.complete() == 2);
}

}  // namespace shard_clock_test
