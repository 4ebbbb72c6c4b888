#pragma once
// How far a network fit can be trusted, and why (docs/calibration.md, "Fit verdicts"). Judged from the
// profile alone, so that `dtsim fit` and `dtsim profile show` say the same of a profile:
//   poor   the model misses its own samples (median relative error above 10 %), or a latency the rank
//          count cannot explain: the first segment's α above 4 (N − 1)/(n − 1) times the α of the fewest
//          ranks (n) of the same op, mode and link class (at least 10 µs taken for the latter);
//   check  a segment that starts more than 10 % below where the one before ends (more bytes cannot take
//          less time: an intercept driven negative by noise, where a shaper's burst only bends the line),
//          a largest relative error above 25 %, or a measured point whose standard error is above 10 %
//          of its time;
//   good   none of these.
// Stalls left out of the measured points are named whatever the rating.
#include <string>
#include <vector>

#include "dtsim/name_table.hpp"
#include "dtsim/profile.hpp"

namespace dtsim::calibrate {

enum class FitRating { good, check, poor };
inline constexpr auto kFitRatingNames =
    make_name_table(std::pair{FitRating::good, "good"}, std::pair{FitRating::check, "check"}, std::pair{FitRating::poor, "poor"});
constexpr std::string_view to_string(FitRating rating) { return kFitRatingNames.name(rating); }

struct FitVerdict {
    FitRating rating = FitRating::good;
    std::vector<std::string> reasons;  // empty when good and nothing to say
};

/// One verdict per network fit, in the profile's order.
std::vector<FitVerdict> judge_network_fits(const Profile& profile);

}  // namespace dtsim::calibrate
