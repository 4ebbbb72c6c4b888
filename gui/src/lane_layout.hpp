#pragma once
// Which rows the timeline shows: ranks grouped by node, or by pipeline stage under a header row for an
// LLM layout; a collapsed group as one merged row; and a regular-expression filter on the rank labels
// ("gpu 3", "server 0") and group names ("node 2", "stage 1").
#include <QRegularExpression>
#include <QString>
#include <set>
#include <vector>

namespace dtsim::gui {

class SpanStore;

struct LaneRow {
    QString label;
    int group = 0;                 // the node, or the pipeline stage
    bool collapsed_group = false;  // the merged row of a collapsed group
    bool header = false;           // a stage's header row: its label, and its merged lanes when collapsed
    std::vector<int> rank_slots;   // span store slots drawn in this row
};

class LaneLayout {
public:
    /// An invalid expression keeps the previous filter and returns false.
    bool set_filter(const QString& pattern);
    /// Each slot's pipeline stage: rows are grouped by stage; empty: by node. Switching between the two
    /// expands every group.
    void set_stages(std::vector<int> stage_of_slot);
    bool by_stage() const { return !stages_.empty(); }
    void toggle_group(int group);
    QString group_name(int group) const;
    std::vector<LaneRow> rows(const SpanStore& store) const;

private:
    bool shown(const QString& label, const QString& group) const;
    std::vector<LaneRow> node_rows(const SpanStore& store) const;
    std::vector<LaneRow> stage_rows(const SpanStore& store) const;

    QRegularExpression filter_;
    std::set<int> collapsed_;
    std::vector<int> stages_;
};

}  // namespace dtsim::gui
