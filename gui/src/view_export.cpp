#include "view_export.hpp"

#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

#include "dtsim/chrome_trace.hpp"

namespace dtsim::gui {

QString export_widget(QWidget* widget, const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(widget->size());
        svg.setViewBox(widget->rect());
        svg.setTitle(widget->windowTitle());
        QPainter painter;
        if (!painter.begin(&svg)) return QStringLiteral("%1: cannot be written").arg(path);
        widget->render(&painter);
        return painter.end() ? QString() : QStringLiteral("%1: cannot be written").arg(path);
    }
    if (suffix != QLatin1String("png")) return QStringLiteral("%1: give a .png or .svg file name").arg(path);
    return widget->grab().save(path, "PNG") ? QString() : QStringLiteral("%1: cannot be written").arg(path);
}

QString export_chrome_trace(const Run& run, const QString& path) {
    try {
        write_chrome_trace_file(run, path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace dtsim::gui
