// libFuzzer target for the scenario loader: any input must either load or be rejected with an
// InputError. Any other exception (e.g. a yaml-cpp exception escaping core), a crash or a sanitizer
// report is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "dtsim/input_error.hpp"
#include "dtsim/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)dtsim::load_scenario_text(text, "fuzz-input.yaml");
    } catch (const dtsim::InputError&) {
        // Invalid input, rejected with a located message: the expected outcome.
    }
    return 0;
}
