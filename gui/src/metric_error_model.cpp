#include "metric_error_model.hpp"

namespace dtsim::gui {

void MetricErrorModel::set_comparison(std::vector<MetricComparison> rows, const QString& reference_label, const QString& other_label) {
    beginResetModel();
    rows_ = std::move(rows);
    reference_ = reference_label;
    other_ = other_label;
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, column_count - 1);
}

int MetricErrorModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int MetricErrorModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant MetricErrorModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == metric ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    const auto& row = rows_[static_cast<size_t>(index.row())];
    switch (index.column()) {
    case metric: return QString::fromStdString(row.label);
    case reference: return QString::fromStdString(format_metric_value(row, row.value.reference));
    case other: return QString::fromStdString(format_metric_value(row, row.value.other));
    case error: return QString::fromStdString(format_relative_error(row.value));
    default: return {};
    }
}

QVariant MetricErrorModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case metric: return QStringLiteral("metric");
    case reference: return reference_;
    case other: return other_;
    case error: return QStringLiteral("error");
    default: return {};
    }
}

}  // namespace dtsim::gui
