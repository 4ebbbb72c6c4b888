#include "knob_widgets.hpp"

#include <QFormLayout>

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

}  // namespace dtsim::gui
