// The progress line a terminal shows: counts, elapsed time, ETA and events per second.
#include <catch2/catch.hpp>

#include "progress_text.hpp"

namespace progress_text_test {

using namespace dtsim::cli;

TEST_CASE("the time still to go assumes the remaining units take as long as the done ones, and counts down", "[unit][progress]") {
    CHECK_FALSE(remaining_s(10, 0, 0, 5).has_value());  // nothing done: no estimate
    CHECK(remaining_s(10, 10, 2, 5) == Approx(15));      // 5 s a unit, 3 to go
    CHECK(remaining_s(14, 10, 2, 5) == Approx(11));      // 4 s later
    CHECK(remaining_s(40, 10, 2, 5) == Approx(0));       // later than foreseen: not below 0
    CHECK(remaining_s(10, 10, 5, 5) == Approx(0));
    CHECK_FALSE(remaining_s(10, 10, 6, 5).has_value());
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
    ProgressReport sweep;
    sweep.task = "sweep";
    sweep.done = 3;
    sweep.total = 10;
    sweep.unit = "points";
    sweep.elapsed_s = 42;
    sweep.done_at_s = 42;
    CHECK(progress_text(sweep) == "sweep: [3/10] points, 0:42 elapsed, ETA 1:38");
    sweep.elapsed_s = 50;
    CHECK(progress_text(sweep) == "sweep: [3/10] points, 0:50 elapsed, ETA 1:30");
    sweep.done = 0;
    CHECK(progress_text(sweep) == "sweep: [0/10] points, 0:50 elapsed");

    ProgressReport simulate = sweep;
    simulate.task = "simulate";
    simulate.done = 1;
    simulate.total = 4;
    simulate.unit = "iterations";
    simulate.elapsed_s = 2;
    simulate.done_at_s = 2;
    simulate.simulated_s = 1.25;
    simulate.events = 3'000'000;
    CHECK(progress_text(simulate) == "simulate: [1/4] iterations, 1.250 s simulated, 1.5 M events/s, 0:02 elapsed, ETA 0:06");
    simulate.events = 1900;
    CHECK(progress_text(simulate) == "simulate: [1/4] iterations, 1.250 s simulated, 950 events/s, 0:02 elapsed, ETA 0:06");
    simulate.elapsed_s = simulate.done_at_s = 0;  // no rate before any time has passed
    CHECK(progress_text(simulate) == "simulate: [1/4] iterations, 1.250 s simulated, 0:00 elapsed, ETA 0:00");
}

}  // namespace progress_text_test
