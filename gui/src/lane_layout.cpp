#include "lane_layout.hpp"

#include <map>

#include "span_store.hpp"

namespace dtsim::gui {
namespace {

QString rank_label(const RankInfo& rank) { return QStringLiteral("n%1 %2").arg(rank.node).arg(QString::fromStdString(rank.label)); }

}  // namespace

bool LaneLayout::set_filter(const QString& pattern) {
    QRegularExpression expression(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!expression.isValid()) return false;
    filter_ = expression;
    return true;
}

void LaneLayout::set_stages(std::vector<int> stage_of_slot) {
    if (stage_of_slot.empty() != stages_.empty()) collapsed_.clear();  // node and stage numbers are unrelated
    stages_ = std::move(stage_of_slot);
}

void LaneLayout::toggle_group(int group) {
    if (!collapsed_.erase(group)) collapsed_.insert(group);
}

QString LaneLayout::group_name(int group) const {
    return (by_stage() ? QStringLiteral("stage %1") : QStringLiteral("node %1")).arg(group);
}

bool LaneLayout::shown(const QString& label, const QString& group) const {
    return filter_.pattern().isEmpty() || filter_.match(label).hasMatch() || filter_.match(group).hasMatch();
}

std::vector<LaneRow> LaneLayout::rows(const SpanStore& store) const {
    return by_stage() ? stage_rows(store) : node_rows(store);
}

std::vector<LaneRow> LaneLayout::node_rows(const SpanStore& store) const {
    std::vector<LaneRow> rows;
    for (int slot = 0; slot < store.rank_count(); ++slot) {
        const auto& rank = store.rank(slot);
        const QString node_name = group_name(rank.node);
        if (!shown(QString::fromStdString(rank.label), node_name)) continue;
        if (collapsed_.count(rank.node)) {
            if (rows.empty() || !rows.back().collapsed_group || rows.back().group != rank.node)
                rows.push_back({QStringLiteral("▸ ") + node_name, rank.node, true, false, {}});
            rows.back().rank_slots.push_back(slot);
            continue;
        }
        rows.push_back({rank_label(rank), rank.node, false, false, {slot}});
    }
    for (auto& row : rows)
        if (row.collapsed_group) row.label += QStringLiteral(" (%1 ranks)").arg(row.rank_slots.size());
    return rows;
}

std::vector<LaneRow> LaneLayout::stage_rows(const SpanStore& store) const {
    std::map<int, std::vector<int>> shown_slots;  // by stage, first stage first
    for (int slot = 0; slot < store.rank_count() && slot < static_cast<int>(stages_.size()); ++slot) {
        const int stage = stages_[static_cast<size_t>(slot)];
        if (shown(QString::fromStdString(store.rank(slot).label), group_name(stage))) shown_slots[stage].push_back(slot);
    }
    std::vector<LaneRow> rows;
    for (const auto& [stage, ranks] : shown_slots) {
        const bool collapsed = collapsed_.count(stage) > 0;
        const QString header = QStringLiteral("%1 %2 (%3 ranks)")
                                   .arg(collapsed ? QStringLiteral("▸") : QStringLiteral("▾"), group_name(stage))
                                   .arg(ranks.size());
        rows.push_back({header, stage, collapsed, true, collapsed ? ranks : std::vector<int>{}});
        if (collapsed) continue;
        for (int slot : ranks) rows.push_back({rank_label(store.rank(slot)), stage, false, false, {slot}});
    }
    return rows;
}

}  // namespace dtsim::gui
