#include "knob_widgets.hpp"

#include <QFormLayout>
#include <QLineEdit>

namespace dtsim::gui {

QSpinBox* spin_box(int min, int max, int value) {
    auto* box = new QSpinBox;
    box->setRange(min, max);
    box->setValue(value);
    return box;
}

QComboBox* combo_box(const QStringList& items) {
    auto* box = new QComboBox;
    box->addItems(items);
    return box;
}

QString text_of(std::string_view name) { return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())); }

QStringList texts_of(const std::vector<std::string>& names) {
    QStringList out;
    for (const auto& name : names) out << QString::fromStdString(name);
    return out;
}

QCheckBox* add_knob(QFormLayout* form, const QString& label, QWidget* editor, QWidget* owner, const QString& name) {
    auto* on = new QCheckBox(label, owner);
    editor->setParent(owner);
    editor->setEnabled(false);
    if (!name.isEmpty()) {
        on->setObjectName(name + QStringLiteral(" on"));
        editor->setObjectName(name);
    }
    QObject::connect(on, &QCheckBox::toggled, editor, &QWidget::setEnabled);
    form->addRow(on, editor);
    return on;
}

void show_value(const QCheckBox* on, QSpinBox* editor, const std::optional<int>& value) {
    if (!on->isChecked() && value) editor->setValue(*value);
}

void show_value(const QCheckBox* on, QCheckBox* editor, const std::optional<bool>& value) {
    if (!on->isChecked() && value) editor->setChecked(*value);
}

void show_value(const QCheckBox* on, QComboBox* editor, const std::optional<std::string>& value) {
    if (on->isChecked() || !value) return;
    const QString text = QString::fromStdString(*value);
    if (const int index = editor->findText(text); index >= 0) editor->setCurrentIndex(index);
    else if (editor->isEditable()) editor->setEditText(text);
}

void show_value(const QCheckBox* on, QLineEdit* editor, const std::optional<std::string>& value) {
    if (!on->isChecked() && value) editor->setText(QString::fromStdString(*value));
}

}  // namespace dtsim::gui
