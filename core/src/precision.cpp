#include "dtsim/precision.hpp"

namespace dtsim {

double bytes_per_element(Precision precision) {
    // TF32 is a math mode over fp32 storage: gradients stay 4 bytes.
    return (precision == Precision::fp16 || precision == Precision::bf16) ? 2.0 : 4.0;
}

}  // namespace dtsim
