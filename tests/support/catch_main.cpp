// The main of the unit, integration and MPI tests (Debian's prebuilt Catch2 main lacks benchmarking support).
#include <catch2/catch.hpp>

int main(int argc, char** argv) { return Catch::Session().run(argc, argv); }
