#pragma once
// The Advise view's plan table: one row per simulated configuration of every option (degrees, iteration
// time, tokens/s, MFU, memory per GPU, exposed communication per dimension, time-to-train, cost (cloud and
// owned), frontier,
// run). Numbers sort as numbers through kSortRole.
#include <QAbstractTableModel>

#include "advise_result.hpp"

namespace dtsim::gui {

class PlanTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        option,
        configuration,
        tp,  // degrees
        pp,
        cp,
        ep,
        dp,
        iteration_time,
        tokens_per_s,
        mfu,
        memory,
        exposed_tp,
        exposed_cp,
        exposed_ep,
        exposed_pp,
        exposed_dp,
        time_to_train,
        cost,
        owned,
        pareto,
        run,
        column_count
    };
    static constexpr int kSortRole = Qt::UserRole;

    using QAbstractTableModel::QAbstractTableModel;
    void set_result(AdviseResult result);
    const AdviseResult& result() const { return result_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    AdviseResult result_;
};

}  // namespace dtsim::gui
