#pragma once
// The what-if panel's editors: a knob is a check box that turns its editor on, and only a turned-on
// knob becomes an override (whatif_overrides.hpp).
#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QStringList>
#include <optional>
#include <string_view>

class QFormLayout;

namespace dtsim::gui {

QSpinBox* spin_box(int min, int max, int value);
QComboBox* combo_box(const QStringList& items);
QString text_of(std::string_view name);

/// The names of a core name table (kSyncModeNames, kPipelineScheduleNames, ...), in its order.
template <typename Table>
QStringList names_of(const Table& table) {
    QStringList out;
    for (const auto name : table.names()) out << text_of(name);
    return out;
}

/// Adds a row to `form`: a check box named `label` that enables `editor` (both owned by `owner`). A
/// non-empty `name` names the check box and editor "NAME on" and NAME, so that tests can find them.
QCheckBox* add_knob(QFormLayout* form, const QString& label, QWidget* editor, QWidget* owner, const QString& name = {});

/// The editor's value where its knob is on.
template <typename T, typename Editor, typename Read>
std::optional<T> knob(const QCheckBox* on, const Editor* editor, Read read) {
    return on->isChecked() ? std::optional<T>(read(editor)) : std::nullopt;
}

}  // namespace dtsim::gui
