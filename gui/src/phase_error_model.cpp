#include "phase_error_model.hpp"

#include <cmath>

#include "dtsim/units.hpp"

namespace dtsim::gui {

void PhaseErrorModel::setComparison(std::vector<PhaseComparison> rows, const QString& first_label, const QString& second_label) {
    beginResetModel();
    m_rows = std::move(rows);
    m_first = first_label;
    m_second = second_label;
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int PhaseErrorModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }

int PhaseErrorModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PhaseErrorModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == Phase ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    const auto& row = m_rows[static_cast<size_t>(index.row())];
    switch (index.column()) {
    case Phase: return QString::fromStdString(row.phase);
    case First: return QString::fromStdString(format_seconds(row.predicted_s));
    case Second: return QString::fromStdString(format_seconds(row.measured_s));
    case Error: {
        const double e = row.relative_error();
        return std::isfinite(e) ? QStringLiteral("%1%2 %").arg(e >= 0 ? "+" : "").arg(e * 100, 0, 'f', 1) : QStringLiteral("n/a");
    }
    default: return {};
    }
}

QVariant PhaseErrorModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Phase: return QStringLiteral("phase (per iteration)");
    case First: return m_first;
    case Second: return m_second;
    case Error: return QStringLiteral("error");
    default: return {};
    }
}

}  // namespace dtsim::gui
