#pragma once
#include <stdexcept>
#include <string>

namespace dtsim {

/// An error the user caused with their input (scenario, preset, command line).
/// The message always names where (file and line, or the --set option), the key, and what was expected.
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

/// Exit codes shared by every dtsim executable.
namespace exit_code {
inline constexpr int ok = 0;
inline constexpr int failure = 1;       // an unexpected failure (a bug, an I/O error)
inline constexpr int bad_input = 2;     // the user's input is invalid
inline constexpr int deadlock = 3;      // the simulation could not make progress
inline constexpr int store_error = 4;   // the runs database could not be read or written
inline constexpr int unavailable = 5;   // the hardware a command asked for is not present (no CUDA device)
}  // namespace exit_code

}  // namespace dtsim
