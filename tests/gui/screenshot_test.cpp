#include <QImage>
#include <QProcess>
#include <QSet>
#include <catch2/catch.hpp>

#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "kind_palette.hpp"
#include "main_window.hpp"

namespace screenshot_test {

using namespace dtsim;
using namespace dtsim::gui;

namespace {

struct ImageStats {
    int distinct = 0;
    std::array<bool, 3> kind_present{};
};

ImageStats stats(const QImage& image) {
    QSet<QRgb> colours;
    ImageStats s;
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < rgb.height(); ++y)
        for (int x = 0; x < rgb.width(); ++x) {
            const QRgb c = rgb.pixel(x, y);
            colours.insert(c);
            for (size_t k = 0; k < kKindRgb.size(); ++k) s.kind_present[k] = s.kind_present[k] || c == kKindRgb[k];
        }
    s.distinct = static_cast<int>(colours.size());
    return s;
}

}  // namespace

TEST_CASE("gui::MainWindow: screenshots of each view have the requested size and show the lanes' colours", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-shots");
    test::write_test_database(dir.file("runs.db"));
    MainWindow window(QStringLiteral(DTSIM_EXECUTABLE));
    REQUIRE(window.open_database(QString::fromStdString(dir.file("runs.db"))));
    const QSize size(1000, 600);

    SECTION("timeline") {
        REQUIRE(window.select_runs(1));
        window.show_view(ViewKind::timeline);
        const auto s = stats(window.screenshot(size));
        CHECK(window.screenshot(size).size() == size);
        CHECK(s.distinct > 50);
        CHECK(s.kind_present == std::array<bool, 3>{true, true, true});
    }
    SECTION("compare") {
        REQUIRE(window.select_runs(1, 2));
        CHECK(window.selected_run_ids() == std::vector<std::int64_t>{1, 2});
        window.show_view(ViewKind::compare);
        const QImage image = window.screenshot(size);
        CHECK(image.size() == size);
        const auto s = stats(image);
        CHECK(s.distinct > 50);
        CHECK(s.kind_present == std::array<bool, 3>{true, true, true});
    }
    SECTION("speedup") {
        REQUIRE(window.select_runs(1));
        window.show_view(ViewKind::speedup);
        const QImage image = window.screenshot(size);
        CHECK(image.size() == size);
        const auto s = stats(image);
        CHECK(s.distinct > 100);
        CHECK(s.kind_present == std::array<bool, 3>{true, true, true});  // the breakdown's stacked bars
    }
}

TEST_CASE("gui::dtsim-gui: --screenshot writes the PNG, --help names the program, bad options give one message and exit 2", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-cli");
    test::write_test_database(dir.file("runs.db"));
    auto run = [](const QStringList& args) {
        QProcess process;
        process.start(QStringLiteral(DTSIM_GUI_EXECUTABLE), args);
        REQUIRE(process.waitForFinished(60000));
        return std::make_pair(process.exitCode(), QString::fromLocal8Bit(process.readAllStandardError()));
    };
    const QString db = QString::fromStdString(dir.file("runs.db"));
    const QString png = QString::fromStdString(dir.file("shot.png"));
    auto [code, error] = run({"--db", db, "--run", "1", "--compare", "2", "--view", "compare", "--screenshot", png, "--size", "800x450"});
    CHECK(code == 0);
    CHECK(QImage(png).size() == QSize(800, 450));

    QProcess help;
    help.start(QStringLiteral(DTSIM_GUI_EXECUTABLE), {QStringLiteral("--help")});
    REQUIRE(help.waitForFinished(60000));
    CHECK(help.exitCode() == 0);
    const QString usage = QString::fromLocal8Bit(help.readAllStandardOutput());
    CHECK(usage.startsWith(QStringLiteral("Usage: dtsim-gui [options]\n")));
    CHECK(usage.contains(QStringLiteral("--db <FILE>")));
    CHECK_FALSE(usage.contains(QStringLiteral("executable_name")));

    for (const auto& [args, expected] : std::vector<std::pair<QStringList, QString>>{
             {{"--view", "pie"}, "--view: expected one of timeline, compare, speedup, whatif, advise, got 'pie'"},
             {{"--db", db, "--run", "x"}, "--run: expected a run id"},
             {{"--size", "big"}, "--size: expected WIDTHxHEIGHT"},
             {{"--bogus"}, "Unknown option 'bogus'"},
             {{"--screenshot", png}, "--screenshot needs --db FILE and --run ID"},
             {{"--db", QString::fromStdString(dir.file("missing.db")), "--run", "1", "--screenshot", png}, "no runs database here"},
             {{"--db", db, "--run", "42", "--screenshot", png}, "no run with id 42"}}) {
        auto [c, text] = run(args);
        CAPTURE(args.join(QLatin1Char(' ')).toStdString(), text.toStdString());
        CHECK(c == 2);
        CHECK(text.contains(expected));
        CHECK(text.count(QStringLiteral("dtsim-gui: error:")) == 1);  // one message (Qt's own warnings aside)
    }
}

}  // namespace screenshot_test
