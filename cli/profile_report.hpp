#pragma once
// The readable summary of a profile that `dtsim fit` and `dtsim profile show` print: every network fit
// with its segments and errors, and the compute fits.
#include <ostream>

#include "dtsim/profile.hpp"

namespace dtsim::cli {

void print_profile_report(std::ostream& out, const Profile& profile);

}  // namespace dtsim::cli
