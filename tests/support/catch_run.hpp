#pragma once
// The test executables' one call into Catch2's runner (Catch::Session is only declared where its implementation is
// compiled, tests/support/catch_session.cpp). Outside dtsim::test: the GUI tests' `test::` means dtsim::gui::test.

/// Runs the test cases the command line selects and returns the exit status Catch2 gives.
int run_catch_session(int argc, char** argv);
