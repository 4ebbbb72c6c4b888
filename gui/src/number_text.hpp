#pragma once
// Numbers as the GUI's tables show them: short, with an SI prefix where large.
#include <QString>

namespace dtsim::gui {

/// Three significant figures at most, without a trailing ".0": "93.1", "80", "141".
QString short_number(double value);

/// With an SI prefix from k to T: "288 k", "1.5 M".
QString with_prefix(double value);

}  // namespace dtsim::gui
