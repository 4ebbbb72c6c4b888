#pragma once
// The run browser's rows: one per stored run (id, kind, scenario, GPUs, strategy, iteration time, date).
#include <QAbstractTableModel>
#include <vector>

#include "dtsim/run_store.hpp"

namespace dtsim::gui {

class RunListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Kind, Scenario, Gpus, Strategy, IterationTime, Date, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;  // numbers sort as numbers

    using QAbstractTableModel::QAbstractTableModel;
    void setRuns(std::vector<RunListEntry> runs);
    const std::vector<RunListEntry>& runs() const { return m_runs; }
    /// Row of the run with that id, or -1.
    int rowOfId(std::int64_t id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<RunListEntry> m_runs;
};

}  // namespace dtsim::gui
