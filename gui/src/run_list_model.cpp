#include "run_list_model.hpp"

#include "dtsim/units.hpp"
#include "dtsim/utf8_text.hpp"
#include "number_text.hpp"

namespace dtsim::gui {
namespace {

// "93.1/80 GB ✗": the peak memory per GPU against the GPU's, and whether it fits.
QString memory_text(const RunSummary& summary) {
    return QStringLiteral("%1/%2 GB %3")
        .arg(short_number(summary.memory_per_gpu_bytes / 1e9), short_number(summary.memory_capacity_bytes / 1e9),
             summary.fits ? QStringLiteral("✓") : QStringLiteral("✗"));
}

// Runs without an LLM layout leave these figures at 0: their cells stay empty.
QVariant llm_figure(double value, int role, const QString& text) {
    if (role == RunListModel::kSortRole) return value;
    return value > 0 ? QVariant(text) : QVariant(QString());
}

}  // namespace

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
    if (role == Qt::ToolTipRole) return data(index, Qt::DisplayRole);  // the whole text of a cell cut by its column
    if (role != Qt::DisplayRole && role != kSortRole && role != Qt::TextAlignmentRole) return {};
    const auto& run = runs_[static_cast<size_t>(index.row())];
    const bool numeric = index.column() != kind && index.column() != scenario && index.column() != strategy && index.column() != date;
    if (role == Qt::TextAlignmentRole) return numeric ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    switch (index.column()) {
    case id: return QVariant::fromValue<qlonglong>(run.id);
    case kind: return QString::fromStdString(to_string(run.kind));
    case scenario: return QString::fromStdString(printable_text(run.scenario_name));
    case gpus: return run.gpus;
    case strategy: return QString::fromStdString(printable_text(run.strategy));
    case iteration_time:
        return role == kSortRole ? QVariant(run.iteration_time_s) : QVariant(QString::fromStdString(format_seconds(run.iteration_time_s)));
    case mfu:
        return llm_figure(run.summary.model_flops_utilisation, role,
                          short_number(100 * run.summary.model_flops_utilisation) + QStringLiteral(" %"));
    case tokens_per_s: return llm_figure(run.summary.tokens_per_s, role, with_prefix(run.summary.tokens_per_s));
    case memory: return llm_figure(run.summary.memory_per_gpu_bytes, role, memory_text(run.summary));
    case date: return QString::fromStdString(run.created_at);
    default: return {};
    }
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const names[column_count] = {"id",        "kind", "scenario", "GPUs",       "strategy",
                                                                    "iteration", "MFU",  "tokens/s", "memory/GPU", "date"};
    return section >= 0 && section < column_count ? QVariant(QString::fromLatin1(names[section])) : QVariant();
}

}  // namespace dtsim::gui
