// The progress line a terminal shows: counts, elapsed time, ETA and events per second.
#include <catch2/catch.hpp>

#include "progress_text.hpp"

using namespace dtsim::cli;

TEST_CASE("the time still to go assumes the remaining units take as long as the done ones", "[unit][progress]") {
    CHECK_FALSE(remaining_s(10, 0, 5).has_value());  // nothing done: no estimate
    CHECK(remaining_s(10, 2, 5) == Approx(15));
    CHECK(remaining_s(10, 5, 5) == Approx(0));
    CHECK_FALSE(remaining_s(10, 6, 5).has_value());
}

TEST_CASE("wall-clock durations read as a clock", "[unit][progress]") {
    CHECK(format_wall_time(0) == "0:00");
    CHECK(format_wall_time(7.2) == "0:07");
    CHECK(format_wall_time(59.6) == "1:00");
    CHECK(format_wall_time(750) == "12:30");
    CHECK(format_wall_time(3723) == "1:02:03");
    CHECK(format_wall_time(-1) == "0:00");
}

TEST_CASE("a progress line says what is done of how much, how long it took and how long it may still take", "[unit][progress]") {
    ProgressReport sweep{.task = "sweep", .done = 3, .total = 10, .unit = "points", .elapsed_s = 42};
    CHECK(progress_text(sweep) == "sweep: [3/10] points, 0:42 elapsed, ETA 1:38");
    sweep.done = 0;
    CHECK(progress_text(sweep) == "sweep: [0/10] points, 0:42 elapsed");

    ProgressReport simulate{.task = "simulate", .done = 1, .total = 4, .unit = "iterations", .elapsed_s = 2,
                            .simulated_s = 1.25, .events = 3'000'000};
    CHECK(progress_text(simulate) == "simulate: [1/4] iterations, 1.250 s simulated, 1.5 M events/s, 0:02 elapsed, ETA 0:06");
    simulate.events = 1900;
    CHECK(progress_text(simulate) == "simulate: [1/4] iterations, 1.250 s simulated, 950 events/s, 0:02 elapsed, ETA 0:06");
    simulate.elapsed_s = 0;  // no rate before any time has passed
    CHECK(progress_text(simulate) == "simulate: [1/4] iterations, 1.250 s simulated, 0:00 elapsed, ETA 0:00");
}
