#pragma once
// A scenario's own values of the what-if knobs, for the panel to show where the user has not turned a
// knob on: a what-if starts from what the scenario (or the selected run) already does. Qt-free.
#include "dtsim/scenario.hpp"
#include "whatif_overrides.hpp"

namespace dtsim::gui {

/// Every knob the scenario has a value for (the model only for a zoo model; the LLM knobs only with a
/// layout). The profile is its shipped name where it is one of data/profiles/, else its file; "" for none.
WhatIfKnobs scenario_knobs(const Scenario& scenario);

}  // namespace dtsim::gui
