#include "run_list_model.hpp"

#include "dtsim/units.hpp"

namespace dtsim::gui {

void RunListModel::setRuns(std::vector<RunListEntry> runs) {
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

int RunListModel::rowOfId(std::int64_t id) const {
    for (size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].id == id) return static_cast<int>(i);
    return -1;
}

int RunListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_runs.size()); }

int RunListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::TextAlignmentRole) return {};
    const auto& run = m_runs[static_cast<size_t>(index.row())];
    const bool numeric = index.column() == Id || index.column() == Gpus || index.column() == IterationTime;
    if (role == Qt::TextAlignmentRole) return numeric ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    switch (index.column()) {
    case Id: return QVariant::fromValue<qlonglong>(run.id);
    case Kind: return QString::fromStdString(to_string(run.kind));
    case Scenario: return QString::fromStdString(run.scenario_name);
    case Gpus: return run.gpus;
    case Strategy: return QString::fromStdString(run.strategy);
    case IterationTime:
        return role == SortRole ? QVariant(run.iteration_time_s) : QVariant(QString::fromStdString(format_seconds(run.iteration_time_s)));
    case Date: return QString::fromStdString(run.created_at);
    default: return {};
    }
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const names[ColumnCount] = {"id", "kind", "scenario", "GPUs", "strategy", "iteration", "date"};
    return section >= 0 && section < ColumnCount ? QVariant(QString::fromLatin1(names[section])) : QVariant();
}

}  // namespace dtsim::gui
