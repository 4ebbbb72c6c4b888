// TCP's slow start behind a full queue (tcp_join.hpp).
#include <catch2/catch.hpp>

#include "dtsim/tcp_join.hpp"

using namespace dtsim;

TEST_CASE("JoinRamp: the window doubles per loaded round trip up to the share", "[unit][tcp-join]") {
    const JoinRamp ramp{0.02};
    // 64 initial windows per round trip: six doublings.
    CHECK(ramp.seconds_to_share(64 * kTcpInitialWindowBytes / 0.02) == Approx(6 * 0.02));
    CHECK(ramp.seconds_to_share(kTcpInitialWindowBytes / 0.02 / 2) == 0);
}

