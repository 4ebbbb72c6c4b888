// The main of the unit, integration and MPI tests (Debian's prebuilt Catch2 main lacks benchmarking support).
#include "catch_run.hpp"

int main(int argc, char** argv) { return run_catch_session(argc, argv); }
