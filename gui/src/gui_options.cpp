#include "gui_options.hpp"

#include <QCommandLineParser>
#include <QRegularExpression>

namespace dtsim::gui {
namespace {

std::optional<qint64> run_id(const QString& text) {
    bool ok = false;
    const qint64 id = text.toLongLong(&ok);
    return ok && id > 0 ? std::optional<qint64>(id) : std::nullopt;
}

}  // namespace

ParsedGuiOptions parse_gui_options(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("dtsim-gui: browse runs, timelines, speedup curves; run what-ifs"));
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help"));
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Runs database to open"), QStringLiteral("FILE"));
    const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Run to show"), QStringLiteral("ID"));
    const QCommandLineOption compare(QStringLiteral("compare"), QStringLiteral("Second run, compared with --run"), QStringLiteral("ID2"));
    const QCommandLineOption view(QStringLiteral("view"), QStringLiteral("timeline, compare, speedup, whatif or advise"), QStringLiteral("VIEW"));
    const QCommandLineOption advise(QStringLiteral("advise"), QStringLiteral("Show these dtsim advise --json results in the Advise view"),
                                    QStringLiteral("RESULTS.json"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Render offscreen into this PNG and exit"),
                                        QStringLiteral("OUT.png"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Screenshot size (default 1600x900)"), QStringLiteral("WxH"));
    const QCommandLineOption dtsim(QStringLiteral("dtsim"), QStringLiteral("The dtsim executable for what-ifs"), QStringLiteral("PATH"));
    parser.addOptions({help, db, run, compare, view, advise, screenshot, size, dtsim});

    ParsedGuiOptions result;
    auto fail = [&result](const QString& message) {
        result.error = message;
        return result;
    };
    if (!parser.parse(arguments)) return fail(parser.errorText());
    if (!parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument '%1' (give the database with --db FILE)").arg(parser.positionalArguments().first()));
    if (parser.isSet(help)) {
        result.help = true;
        // QCommandLineParser takes the program's name from a running application, and none runs yet
        // (dtsim-gui parses first, to choose the platform): the usage line names it here.
        const QString help_text = parser.helpText();
        result.help_text = QStringLiteral("Usage: dtsim-gui [options]") + help_text.mid(help_text.indexOf(QLatin1Char('\n')));
        return result;
    }
    auto& o = result.options;
    o.database = parser.value(db);
    o.screenshot = parser.value(screenshot);
    o.dtsim_executable = parser.value(dtsim);
    o.advise_results = parser.value(advise);
    if (parser.isSet(run) && !(o.run = run_id(parser.value(run))))
        return fail(QStringLiteral("--run: expected a run id (a positive integer), got '%1'").arg(parser.value(run)));
    if (parser.isSet(compare) && !(o.compare = run_id(parser.value(compare))))
        return fail(QStringLiteral("--compare: expected a run id (a positive integer), got '%1'").arg(parser.value(compare)));
    if (o.compare && !o.run) return fail(QStringLiteral("--compare needs --run: the run to compare with"));
    if (parser.isSet(view)) {
        static const QStringList names{"timeline", "compare", "speedup", "whatif", "advise"};
        const auto index = names.indexOf(parser.value(view));
        if (index < 0)
            return fail(QStringLiteral("--view: expected one of %1, got '%2'").arg(names.join(QStringLiteral(", ")), parser.value(view)));
        o.view = static_cast<ViewKind>(index);
    }
    if (o.view == ViewKind::compare && !o.compare) return fail(QStringLiteral("--view compare needs --run ID and --compare ID2"));
    if (parser.isSet(size)) {
        static const QRegularExpression form(QStringLiteral(R"(^(\d{2,5})x(\d{2,5})$)"));
        const auto match = form.match(parser.value(size));
        if (!match.hasMatch()) return fail(QStringLiteral("--size: expected WIDTHxHEIGHT such as 1600x900, got '%1'").arg(parser.value(size)));
        o.size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    }
    const bool shows_advice = o.view == ViewKind::advise && !o.advise_results.isEmpty();
    if (!o.screenshot.isEmpty() && (o.database.isEmpty() || (!o.run && !shows_advice)))
        return fail(QStringLiteral("--screenshot needs --db FILE and --run ID (or --view advise --advise RESULTS.json)"));
    return result;
}

}  // namespace dtsim::gui
