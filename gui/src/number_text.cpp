#include "number_text.hpp"

#include <array>

namespace dtsim::gui {

QString short_number(double value) {
    QString text = QString::number(value, 'f', value < 10 ? 2 : value < 100 ? 1 : 0);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0'))) text.chop(1);
        if (text.endsWith(QLatin1Char('.'))) text.chop(1);
    }
    return text;
}

QString with_prefix(double value) {
    constexpr std::array<const char*, 5> kPrefixes{"", " k", " M", " G", " T"};
    size_t prefix = 0;
    for (; value >= 1000 && prefix + 1 < kPrefixes.size(); ++prefix) value /= 1000;
    return short_number(value) + QLatin1String(kPrefixes[prefix]);
}

}  // namespace dtsim::gui
