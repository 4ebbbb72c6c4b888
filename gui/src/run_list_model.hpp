#pragma once
// The run browser's rows: one per stored run (id, kind, scenario, GPUs, strategy, iteration time, and
// for an LLM layout its MFU, tokens/s and peak memory per GPU against the GPU's, then the date).
#include <QAbstractTableModel>
#include <vector>

#include "dtsim/run_store.hpp"

namespace dtsim::gui {

class RunListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { id, kind, scenario, gpus, strategy, iteration_time, mfu, tokens_per_s, memory, date, column_count };
    static constexpr int kSortRole = Qt::UserRole;  // numbers sort as numbers

    using QAbstractTableModel::QAbstractTableModel;
    void set_runs(std::vector<RunListEntry> runs);
    const std::vector<RunListEntry>& runs() const { return runs_; }
    /// Row of the run with that id, or -1.
    int row_of_id(std::int64_t run_id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<RunListEntry> runs_;
};

}  // namespace dtsim::gui
