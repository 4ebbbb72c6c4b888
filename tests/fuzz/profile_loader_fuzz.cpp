// libFuzzer target for the profile reader: any input must either load or be rejected with an InputError.
// Any other exception (a yaml-cpp or JSON exception escaping core), a crash or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "dtsim/input_error.hpp"
#include "dtsim/profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)dtsim::profile_from_json(text, "fuzz-input.json");
    } catch (const dtsim::InputError&) {
        // Invalid input, rejected with a located message: the expected outcome.
    }
    return 0;
}
