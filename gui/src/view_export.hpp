#pragma once
// Export: a widget as PNG or SVG (by the file's suffix), a run as Chrome trace JSON.
#include <QString>

class QWidget;

namespace dtsim {
struct Run;
}

namespace dtsim::gui {

/// Returns an error message, empty on success.
QString export_widget(QWidget* widget, const QString& path);
QString export_chrome_trace(const Run& run, const QString& path);

}  // namespace dtsim::gui
