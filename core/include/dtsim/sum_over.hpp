#pragma once
#include <vector>

namespace dtsim {

/// The sum of one numeric field over a list, e.g. sum_over(layers, &LayerWork::forward_s).
template <typename Item, typename Field>
double sum_over(const std::vector<Item>& items, Field Item::*field) {
    double total = 0;
    for (const auto& item : items) total += item.*field;
    return total;
}

}  // namespace dtsim
