#pragma once
// Which rows the timeline shows: ranks grouped by node, a collapsed node as one merged row, and a
// regular-expression filter on the rank labels ("gpu 3", "server 0") and node names ("node 2").
#include <QRegularExpression>
#include <QString>
#include <set>
#include <vector>

namespace dtsim::gui {

class SpanStore;

struct LaneRow {
    QString label;
    int node = 0;
    bool collapsed_node = false;  // the merged row of a collapsed node
    std::vector<int> rank_slots;  // span store slots drawn in this row
};

class LaneLayout {
public:
    /// An invalid expression keeps the previous filter and returns false.
    bool set_filter(const QString& pattern);
    void toggle_node(int node);
    std::vector<LaneRow> rows(const SpanStore& store) const;

private:
    QRegularExpression filter_;
    std::set<int> collapsed_;
};

}  // namespace dtsim::gui
