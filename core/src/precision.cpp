#include "dtsim/precision.hpp"

namespace dtsim {

double bytes_per_element(Precision precision) { return is_mixed_precision(precision) ? 2.0 : 4.0; }

bool is_mixed_precision(Precision precision) { return precision == Precision::fp16 || precision == Precision::bf16; }

}  // namespace dtsim
