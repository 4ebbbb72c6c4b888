#pragma once
// The compare view's table, as `dtsim compare` prints it: per metric, the reference run's value (the
// measured one when one is), the other's, and the other's relative error.
#include <QAbstractTableModel>
#include <vector>

#include "dtsim/run_comparison.hpp"

namespace dtsim::gui {

class MetricErrorModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { metric, reference, other, error, column_count };

    using QAbstractTableModel::QAbstractTableModel;
    void set_comparison(std::vector<MetricComparison> rows, const QString& reference_label, const QString& other_label);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<MetricComparison> rows_;
    QString reference_ = QStringLiteral("reference");
    QString other_ = QStringLiteral("other");
};

}  // namespace dtsim::gui
