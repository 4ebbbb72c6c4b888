#include "run_list_model.hpp"

#include "dtsim/units.hpp"

namespace dtsim::gui {

void RunListModel::set_runs(std::vector<RunListEntry> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    endResetModel();
}

int RunListModel::row_of_id(std::int64_t run_id) const {
    for (size_t i = 0; i < runs_.size(); ++i)
        if (runs_[i].id == run_id) return static_cast<int>(i);
    return -1;
}

int RunListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(runs_.size()); }

int RunListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant RunListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role != Qt::DisplayRole && role != kSortRole && role != Qt::TextAlignmentRole) return {};
    const auto& run = runs_[static_cast<size_t>(index.row())];
    const bool numeric = index.column() == id || index.column() == gpus || index.column() == iteration_time;
    if (role == Qt::TextAlignmentRole) return numeric ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    switch (index.column()) {
    case id: return QVariant::fromValue<qlonglong>(run.id);
    case kind: return QString::fromStdString(to_string(run.kind));
    case scenario: return QString::fromStdString(run.scenario_name);
    case gpus: return run.gpus;
    case strategy: return QString::fromStdString(run.strategy);
    case iteration_time:
        return role == kSortRole ? QVariant(run.iteration_time_s) : QVariant(QString::fromStdString(format_seconds(run.iteration_time_s)));
    case date: return QString::fromStdString(run.created_at);
    default: return {};
    }
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const names[column_count] = {"id", "kind", "scenario", "GPUs", "strategy", "iteration", "date"};
    return section >= 0 && section < column_count ? QVariant(QString::fromLatin1(names[section])) : QVariant();
}

}  // namespace dtsim::gui
