#pragma once
// The compare view's table: per phase, the two runs' times and the relative error of the first
// (usually predicted) against the second (usually measured).
#include <QAbstractTableModel>
#include <vector>

#include "dtsim/run_comparison.hpp"

namespace dtsim::gui {

class PhaseErrorModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { phase, first, second, error, column_count };

    using QAbstractTableModel::QAbstractTableModel;
    void set_comparison(std::vector<PhaseComparison> rows, const QString& first_label, const QString& second_label);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<PhaseComparison> rows_;
    QString first_ = QStringLiteral("predicted");
    QString second_ = QStringLiteral("measured");
};

}  // namespace dtsim::gui
