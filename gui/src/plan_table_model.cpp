#include "plan_table_model.hpp"

#include <limits>

#include "dtsim/units.hpp"
#include "number_text.hpp"

namespace dtsim::gui {
namespace {

QString seconds_text(double seconds) { return QString::fromStdString(format_seconds(seconds)); }

// A number and its text: the number sorts, the text shows.
QVariant cell(double value, int role, const QString& text) { return role == PlanTableModel::kSortRole ? QVariant(value) : QVariant(text); }

// Dollars, "≥" where only a lower bound is known; no price sorts after every price.
QVariant dollars(const std::optional<double>& usd, int role, bool lower_bound = false) {
    if (!usd) return role == PlanTableModel::kSortRole ? QVariant(std::numeric_limits<double>::infinity()) : QVariant(QStringLiteral("no price"));
    return cell(*usd, role, (lower_bound ? QStringLiteral("≥ $") : QStringLiteral("$")) + with_prefix(*usd));
}

QVariant exposed(const AdvisePoint& p, Dimension dimension, int role) {
    const double seconds = p.exposed_s[static_cast<size_t>(dimension)];
    return cell(seconds, role, seconds_text(seconds));
}

}  // namespace

void PlanTableModel::set_result(AdviseResult result) {
    beginResetModel();
    result_ = std::move(result);
    endResetModel();
}

int PlanTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(result_.points.size()); }

int PlanTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant PlanTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role == Qt::ToolTipRole) return data(index, Qt::DisplayRole);
    if (role != Qt::DisplayRole && role != kSortRole && role != Qt::TextAlignmentRole) return {};
    const auto& p = result_.points[static_cast<size_t>(index.row())];
    const bool text = index.column() == option || index.column() == configuration;
    if (role == Qt::TextAlignmentRole) return text ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    switch (index.column()) {
    case option: return QString::fromStdString(result_.options[p.option]);
    case configuration: return QString::fromStdString(p.configuration);
    case tp: return p.tensor;
    case pp: return p.pipeline;
    case cp: return p.context;
    case ep: return p.expert;
    case dp: return p.data;
    case iteration_time: return cell(p.iteration_time_s, role, seconds_text(p.iteration_time_s));
    case tokens_per_s: return cell(p.tokens_per_s, role, with_prefix(p.tokens_per_s));
    case mfu: return cell(p.mfu, role, short_number(100 * p.mfu) + QStringLiteral(" %"));
    case memory: return cell(p.memory_per_gpu_bytes, role, short_number(p.memory_per_gpu_bytes / 1e9) + QStringLiteral(" GB"));
    case exposed_tp: return exposed(p, Dimension::tp, role);
    case exposed_cp: return exposed(p, Dimension::cp, role);
    case exposed_ep: return exposed(p, Dimension::ep, role);
    case exposed_pp: return exposed(p, Dimension::pp, role);
    case exposed_dp: return exposed(p, Dimension::dp, role);
    case time_to_train: return cell(p.time_to_train_s, role, short_number(p.time_to_train_s / 3600) + QStringLiteral(" h"));
    case cost: return dollars(p.cost_usd, role);
    case owned: return dollars(p.owned_usd, role, !p.owned_complete);
    case pareto: return role == kSortRole ? QVariant(p.pareto ? 0 : 1) : QVariant(p.pareto ? QStringLiteral("✓") : QString());
    case run:
        if (!p.run_id) return role == kSortRole ? QVariant(std::numeric_limits<qlonglong>::max()) : QVariant(QString());
        return QVariant::fromValue<qlonglong>(*p.run_id);
    default: return {};
    }
}

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
    static const char* const names[column_count] = {"option",     "configuration", "TP",         "PP",         "CP",         "EP",    "DP",
                                                    "iteration",  "tokens/s",      "MFU",        "memory/GPU", "exposed TP", "exposed CP",
                                                    "exposed EP", "exposed PP",    "exposed DP", "time-to-train", "cost",    "owned",  "Pareto", "run"};
    static const char* const tips[column_count] = {
        "cluster option of the study", "parallel layout, schedule, micro-batch × microbatches, ZeRO stage, recomputation",
        "tensor-parallel degree",      "pipeline-parallel degree",
        "context-parallel degree",     "expert-parallel degree",
        "data-parallel degree",        "simulated iteration time",
        "tokens per second",           "model FLOPs utilisation",
        "peak memory per GPU",         "tensor-parallel communication not hidden by compute, per iteration",
        "context-parallel communication not hidden by compute, per iteration",
        "expert-parallel communication not hidden by compute, per iteration",
        "pipeline communication not hidden by compute, per iteration",
        "data-parallel communication not hidden by compute, per iteration",
        "hours to reach the study's training target", "GPU-hours × the cloud price per GPU-hour, in US dollars",
        "owning the cluster: its capital over the amortisation period for the run, plus the energy's price, in US dollars (docs/advise.md)",
        "on the Pareto frontier of time-to-train and cost", "the stored run (double-click to open its timeline)"};
    if (section < 0 || section >= column_count) return {};
    return QString::fromUtf8(role == Qt::DisplayRole ? names[section] : tips[section]);
}

}  // namespace dtsim::gui
