#pragma once
// The what-if panel's editors: a knob is a check box that turns its editor on, and only a turned-on
// knob becomes an override (whatif_overrides.hpp).
#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QStringList>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

class QFormLayout;
class QLineEdit;

namespace dtsim::gui {

QSpinBox* spin_box(int min, int max, int value);
QComboBox* combo_box(const QStringList& items);
QString text_of(std::string_view name);
QStringList texts_of(const std::vector<std::string>& names);

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

/// Shows a base scenario's value in the editor of a knob that is off; a knob that is on keeps the user's
/// value. No value (the scenario has none for this knob), or a choice the box does not list, changes nothing.
void show_value(const QCheckBox* on, QSpinBox* editor, const std::optional<int>& value);
void show_value(const QCheckBox* on, QCheckBox* editor, const std::optional<bool>& value);
void show_value(const QCheckBox* on, QComboBox* editor, const std::optional<std::string>& value);
void show_value(const QCheckBox* on, QLineEdit* editor, const std::optional<std::string>& value);

}  // namespace dtsim::gui
