// dtsim-gui: the desktop GUI. With --screenshot it renders one view offscreen into a PNG and exits.
#include <QApplication>
#include <QDir>
#include <cstdio>

#include "advise_view.hpp"
#include "gui_options.hpp"
#include "main_window.hpp"

int main(int argc, char** argv) {
    QStringList arguments;
    for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
    const auto parsed = dtsim::gui::parse_gui_options(arguments);
    if (!parsed.error.isEmpty()) {
        std::fprintf(stderr, "dtsim-gui: error: %s (see dtsim-gui --help)\n", qPrintable(parsed.error));
        return 2;
    }
    if (parsed.help) {
        std::printf("%s", qPrintable(parsed.help_text));
        return 0;
    }
    const auto& options = parsed.options;
    const bool headless = !options.screenshot.isEmpty();
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString dtsim = options.dtsim_executable.isEmpty() ? QDir(QApplication::applicationDirPath()).filePath(QStringLiteral("dtsim"))
                                                             : options.dtsim_executable;
    dtsim::gui::MainWindow window(dtsim);
    const bool opened = options.database.isEmpty() || window.open_database(options.database);
    if (opened && options.run && !window.select_runs(*options.run, options.compare)) {
        const QString message = QStringLiteral("%1: no run with id %2").arg(options.database).arg(*options.run) +
                                (options.compare ? QStringLiteral(" or %1").arg(*options.compare) : QString());
        if (headless) {
            std::fprintf(stderr, "dtsim-gui: error: %s\n", qPrintable(message));
            return 2;
        }
    }
    const QString advice_error = options.advise_results.isEmpty() ? QString() : window.advise_view()->load_results(options.advise_results);
    window.show_view(options.view);
    if (headless) {
        if (!opened) {
            std::fprintf(stderr, "dtsim-gui: error: %s\n", qPrintable(window.last_error().replace(QLatin1Char('\n'), QLatin1Char(' '))));
            return 2;
        }
        if (!advice_error.isEmpty()) {
            std::fprintf(stderr, "dtsim-gui: error: %s\n", qPrintable(advice_error));
            return 2;
        }
        if (!window.screenshot(options.size).save(options.screenshot, "PNG", 0)) {  // 0: smallest file
            std::fprintf(stderr, "dtsim-gui: error: %s: cannot write the screenshot\n", qPrintable(options.screenshot));
            return 1;
        }
        return 0;
    }
    window.resize(options.size);
    window.show();
    return QApplication::exec();
}
