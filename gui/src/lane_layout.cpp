#include "lane_layout.hpp"

#include "span_store.hpp"

namespace dtsim::gui {

bool LaneLayout::set_filter(const QString& pattern) {
    QRegularExpression expression(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!expression.isValid()) return false;
    filter_ = expression;
    return true;
}

void LaneLayout::toggle_node(int node) {
    if (!collapsed_.erase(node)) collapsed_.insert(node);
}

std::vector<LaneRow> LaneLayout::rows(const SpanStore& store) const {
    std::vector<LaneRow> rows;
    const bool filtering = !filter_.pattern().isEmpty();
    for (int slot = 0; slot < store.rank_count(); ++slot) {
        const auto& rank = store.rank(slot);
        const QString node_name = QStringLiteral("node %1").arg(rank.node);
        const QString label = QString::fromStdString(rank.label);
        if (filtering && !filter_.match(label).hasMatch() && !filter_.match(node_name).hasMatch()) continue;
        if (collapsed_.count(rank.node)) {
            if (rows.empty() || !rows.back().collapsed_node || rows.back().node != rank.node)
                rows.push_back({QStringLiteral("▸ ") + node_name, rank.node, true, {}});
            rows.back().rank_slots.push_back(slot);
            continue;
        }
        rows.push_back({QStringLiteral("n%1 %2").arg(rank.node).arg(label), rank.node, false, {slot}});
    }
    for (auto& row : rows)
        if (row.collapsed_node) row.label += QStringLiteral(" (%1 ranks)").arg(row.rank_slots.size());
    return rows;
}

}  // namespace dtsim::gui
