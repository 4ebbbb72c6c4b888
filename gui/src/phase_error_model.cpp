#include "phase_error_model.hpp"

#include <cmath>

#include "dtsim/units.hpp"

namespace dtsim::gui {

void PhaseErrorModel::set_comparison(std::vector<PhaseComparison> rows, const QString& first_label, const QString& second_label) {
    beginResetModel();
    rows_ = std::move(rows);
    first_ = first_label;
    second_ = second_label;
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, column_count - 1);
}

int PhaseErrorModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int PhaseErrorModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant PhaseErrorModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == phase ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    const auto& row = rows_[static_cast<size_t>(index.row())];
    switch (index.column()) {
    case phase: return QString::fromStdString(row.phase);
    case first: return QString::fromStdString(format_seconds(row.predicted_s));
    case second: return QString::fromStdString(format_seconds(row.measured_s));
    case error: {
        const double e = row.relative_error();
        return std::isfinite(e) ? QStringLiteral("%1%2 %").arg(e >= 0 ? "+" : "").arg(e * 100, 0, 'f', 1) : QStringLiteral("n/a");
    }
    default: return {};
    }
}

QVariant PhaseErrorModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case phase: return QStringLiteral("phase (per iteration)");
    case first: return first_;
    case second: return second_;
    case error: return QStringLiteral("error");
    default: return {};
    }
}

}  // namespace dtsim::gui
