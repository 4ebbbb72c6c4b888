#include "view_export.hpp"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

#include "dtsim/chrome_trace.hpp"

namespace dtsim::gui {
namespace {

// The widget as `suffix` (png or svg) in memory; empty when it cannot be drawn.
QByteArray render(QWidget* widget, const QString& suffix) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (suffix == QLatin1String("png")) return widget->grab().save(&buffer, "PNG") ? buffer.data() : QByteArray();
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(widget->size());
    svg.setViewBox(widget->rect());
    svg.setTitle(widget->windowTitle());
    QPainter painter;
    if (!painter.begin(&svg)) return {};
    widget->render(&painter);
    return painter.end() ? buffer.data() : QByteArray();
}

// Checks `path` against the inputs and writes what `write` makes there whole; an error message, or empty.
// The file dialog chose an existing folder: unlike the command line's outputs, none is created.
QString write_export(const QString& path, const std::vector<InputFile>& inputs, const std::function<void(std::ostream&)>& write) {
    if (!QFileInfo(path).absoluteDir().exists()) return QStringLiteral("%1: cannot be written (no such folder)").arg(path);
    try {
        prepare_output_files({{"the export", path.toStdString()}}, inputs);
        write_file_atomically(path.toStdString(), write);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

QString export_widget(QWidget* widget, const QString& path, const std::vector<InputFile>& inputs) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return QStringLiteral("%1: give a .png or .svg file name").arg(path);
    const QByteArray image = render(widget, suffix);
    if (image.isEmpty()) return QStringLiteral("%1: the view cannot be drawn as %2").arg(path, suffix.toUpper());
    return write_export(path, inputs, [&](std::ostream& out) { out.write(image.constData(), image.size()); });
}

QString export_chrome_trace(const Run& run, const QString& path, const std::vector<InputFile>& inputs) {
    return write_export(path, inputs, [&](std::ostream& out) { write_chrome_trace(run, out); });
}

}  // namespace dtsim::gui
