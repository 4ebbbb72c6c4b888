// What an optimizer keeps and moves per parameter (parallelism.hpp, OptimizerSpec).
#include "dtsim/parallelism.hpp"

namespace dtsim {

double OptimizerSpec::state_bytes_per_parameter(bool mixed_precision) const {
    const double moments = kind == OptimizerKind::adam ? 8 : 4;  // Adam: momentum and variance; SGD: momentum
    return moments + (mixed_precision && fp32_master_weights ? 4 : 0);
}

double OptimizerSpec::step_bytes_per_parameter(Precision precision, double gradient_bytes) const {
    const bool mixed = is_mixed_precision(precision);
    const double element = bytes_per_element(precision);
    return 2 * state_bytes_per_parameter(mixed) + gradient_bytes + (mixed && fp32_master_weights ? element : 2 * element);
}

}  // namespace dtsim
