// The one Catch2 main of the project's tests (Debian's prebuilt main lacks benchmarking support).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
