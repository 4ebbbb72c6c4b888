// Catch2's implementation (its session and runner), compiled once for every test executable, and the call into
// it that their mains make.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_run.hpp"

int run_catch_session(int argc, char** argv) { return Catch::Session().run(argc, argv); }
