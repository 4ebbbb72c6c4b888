#include "dtsim/tcp_join.hpp"

#include <algorithm>
#include <cmath>

namespace dtsim {

double JoinRamp::seconds_to_share(double share_bytes_per_second) const {
    const double window = share_bytes_per_second * loaded_round_trip_s;
    return loaded_round_trip_s * std::max(0.0, std::log2(window / initial_window_bytes));
}

}  // namespace dtsim
