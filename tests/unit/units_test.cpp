#include <catch2/catch.hpp>

#include "dtsim/units.hpp"

namespace units_test {

using namespace dtsim;

TEST_CASE("sizes use SI prefixes unless written in binary form", "[unit][units]") {
    CHECK(*parse_bytes("25MB") == 25e6);
    CHECK(*parse_bytes("1GiB") == 1073741824.0);
    CHECK(*parse_bytes("100MiB") == 100.0 * 1024 * 1024);
    CHECK(*parse_bytes("2.5 GB") == 2.5e9);
    CHECK(*parse_bytes("4096") == 4096);
    CHECK_FALSE(parse_bytes("-5MB"));
    CHECK_FALSE(parse_bytes("5 parsecs"));
    CHECK_FALSE(parse_bytes(""));
    CHECK_FALSE(parse_bytes("MB"));
}

TEST_CASE("bandwidths in bits are converted to bytes per second", "[unit][units]") {
    CHECK(*parse_bytes_per_second("400Gbps") == Approx(50e9).epsilon(1e-15));
    CHECK(*parse_bytes_per_second("100Gb/s") == Approx(12.5e9).epsilon(1e-15));
    CHECK(*parse_bytes_per_second("450GB/s") == 450e9);
    CHECK(*parse_bytes_per_second("500Mbit/s") == Approx(62.5e6).epsilon(1e-15));
    CHECK_FALSE(parse_bytes_per_second("400"));  // a bare number has no unambiguous unit
    CHECK_FALSE(parse_bytes_per_second("400 furlongs"));
}

TEST_CASE("durations and compute rates", "[unit][units]") {
    CHECK(*parse_seconds("2us") == Approx(2e-6).epsilon(1e-15));
    CHECK(*parse_seconds("30ms") == Approx(0.03).epsilon(1e-15));
    CHECK(*parse_seconds("1.5s") == 1.5);
    CHECK(*parse_seconds("0") == 0);
    CHECK_FALSE(parse_seconds("5"));  // seconds or microseconds? A unit is required.
    CHECK_FALSE(parse_bytes("1e300TB"));  // overflows to infinity
    CHECK(*parse_flops_per_second("989TFLOPS") == 989e12);
    CHECK_FALSE(parse_seconds("fast"));
    CHECK_FALSE(parse_flops_per_second("12"));
}

TEST_CASE("formatting for tables", "[unit][units]") {
    CHECK(format_seconds(0.0123) == "12.300 ms");
    CHECK(format_seconds(2.5) == "2.500 s");
    CHECK(format_seconds(0) == "0");  // not "0.000 us" beside milliseconds
    CHECK(format_seconds(4e-7) == "0.400 us");
    CHECK(format_bytes(25e6) == "25 MB");
    CHECK(format_bytes_per_second(12.5e9) == "12.5 GB/s");
}

}  // namespace units_test
