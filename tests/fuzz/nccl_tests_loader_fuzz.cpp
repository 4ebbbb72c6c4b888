// libFuzzer target for the nccl-tests log reader: any input must either read or be rejected with an InputError.
// Any other exception, a crash or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "dtsim/calibrate/nccl_tests_log.hpp"
#include "dtsim/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)dtsim::calibrate::parse_nccl_tests_log(text, "fuzz-input_all_reduce_perf.log");
    } catch (const dtsim::InputError&) {
        // Invalid input, rejected with a located message: the expected outcome.
    }
    return 0;
}
