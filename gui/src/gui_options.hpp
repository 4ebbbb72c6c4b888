#pragma once
// dtsim-gui's command line: [--db FILE] [--run ID [--compare ID2]] [--view timeline|compare|speedup|whatif|advise]
// [--advise RESULTS.json] [--screenshot OUT.png [--size WxH]] [--dtsim PATH].
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

#include "main_window.hpp"

namespace dtsim::gui {

struct GuiOptions {
    QString database;
    std::optional<qint64> run;
    std::optional<qint64> compare;
    ViewKind view = ViewKind::timeline;
    QString advise_results;  // what `dtsim advise --json` wrote, for the Advise view
    QString screenshot;
    QSize size{1600, 900};
    QString dtsim_executable;  // empty: the dtsim next to dtsim-gui
};

struct ParsedGuiOptions {
    GuiOptions options;
    QString error;  // one line for people; empty when the command line is good
    bool help = false;
    QString help_text;
};

/// `arguments` includes the program name, as QCoreApplication::arguments() does.
ParsedGuiOptions parse_gui_options(const QStringList& arguments);

}  // namespace dtsim::gui
