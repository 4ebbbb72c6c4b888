// Catch2's implementation (Catch::Session and the runner), for every test executable; each brings its main.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
