#pragma once
// A profile with its measured costs drawn from their uncertainty, for prediction intervals
// (`dtsim simulate --uncertainty N`; docs/calibration.md, "Prediction intervals").
#include <cstdint>

#include "dtsim/profile.hpp"

namespace dtsim {

/// A draw of `profile`: every measured point of a network or codec fit that kept its standard error e
/// becomes seconds + z·e, and every network fit's segments take one factor 1 + z·r, where r is the
/// fit's median relative error over √(points); z are independent standard normal numbers from `seed`.
/// Times stay above a hundredth of their value; points without an error, and fits without any, stay.
Profile draw_profile(const Profile& profile, std::uint64_t seed);

}  // namespace dtsim
