#pragma once
// Export: a widget as PNG or SVG (by the file's suffix), a run as Chrome trace JSON. Each file is written
// whole or not at all (core's write_file_atomically), and never over a file the GUI reads.
#include <QString>
#include <vector>

#include "dtsim/output_files.hpp"

class QWidget;

namespace dtsim {
struct Run;
}

namespace dtsim::gui {

/// Returns an error message, empty on success. `inputs`: the files the GUI has open (the runs database,
/// the what-if scenario), which an export must not replace.
QString export_widget(QWidget* widget, const QString& path, const std::vector<InputFile>& inputs = {});
QString export_chrome_trace(const Run& run, const QString& path, const std::vector<InputFile>& inputs = {});

}  // namespace dtsim::gui
