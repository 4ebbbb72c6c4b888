#include "lane_layout.hpp"

#include "span_store.hpp"

namespace dtsim::gui {

bool LaneLayout::setFilter(const QString& pattern) {
    QRegularExpression expression(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!expression.isValid()) return false;
    m_filter = expression;
    return true;
}

void LaneLayout::toggleNode(int node) {
    if (!m_collapsed.erase(node)) m_collapsed.insert(node);
}

std::vector<LaneRow> LaneLayout::rows(const SpanStore& store) const {
    std::vector<LaneRow> rows;
    const bool filtering = !m_filter.pattern().isEmpty();
    for (int slot = 0; slot < store.rankCount(); ++slot) {
        const auto& rank = store.rank(slot);
        const QString node_name = QStringLiteral("node %1").arg(rank.node);
        const QString label = QString::fromStdString(rank.label);
        if (filtering && !m_filter.match(label).hasMatch() && !m_filter.match(node_name).hasMatch()) continue;
        if (m_collapsed.count(rank.node)) {
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
