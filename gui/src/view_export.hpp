#pragma once
// Export: a widget as PNG or SVG (by the file's suffix), a run as Chrome trace JSON.
#include <QString>

class QWidget;

namespace dtsim {
struct Run;
}

namespace dtsim::gui {

/// Returns an error message, empty on success.
QString exportWidget(QWidget* widget, const QString& path);
QString exportChromeTrace(const Run& run, const QString& path);

}  // namespace dtsim::gui
