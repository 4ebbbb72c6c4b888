#include <QFile>
#include <QImage>
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "main_window.hpp"
#include "timeline_widget.hpp"
#include "view_export.hpp"

namespace export_test {

using namespace dtsim;
using namespace dtsim::gui;

namespace {

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("gui::export_widget and export_chrome_trace: PNG, SVG and trace files", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-export");
    const auto run = test::synthetic_run(1, 2, RunKind::predicted);
    TimelineWidget timeline;
    timeline.resize(640, 200);
    timeline.set_store(std::make_shared<const SpanStore>(SpanStore::from_run(run)));
    const QString png = QString::fromStdString(dir.file("view.png"));
    const QString svg = QString::fromStdString(dir.file("view.svg"));
    const QString trace = QString::fromStdString(dir.file("run.json"));

    CHECK(export_widget(&timeline, png).isEmpty());
    CHECK(QImage(png).size() == QSize(640, 200));
    CHECK(export_widget(&timeline, svg).isEmpty());
    QFile svg_file(svg);
    REQUIRE(svg_file.open(QIODevice::ReadOnly));
    const QByteArray svg_text = svg_file.readAll();
    CHECK(svg_text.contains("<svg"));
    CHECK(svg_text.contains("<image"));  // the lanes, as the cached raster
    CHECK(export_widget(&timeline, QString::fromStdString(dir.file("view.gif"))).contains(QStringLiteral("give a .png or .svg")));
    CHECK(export_widget(&timeline, QStringLiteral("/nonexistent-dir/view.png")).contains(QStringLiteral("cannot be written")));

    REQUIRE(export_chrome_trace(run, trace).isEmpty());
    QFile trace_file(trace);
    REQUIRE(trace_file.open(QIODevice::ReadOnly));
    const auto json = nlohmann::json::parse(trace_file.readAll().toStdString());
    size_t spans = 0;
    for (const auto& event : json.at("traceEvents"))
        if (event.at("ph") == "X") ++spans;
    CHECK(spans == run.spans.size());
    CHECK(export_chrome_trace(run, QStringLiteral("/nonexistent-dir/run.json")).contains(QStringLiteral("no such folder")));
    CHECK_FALSE(std::filesystem::exists("/nonexistent-dir"));
}

TEST_CASE("gui exports replace a file whole, never one the window reads", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-export-safe");
    test::write_test_database(dir.file("runs.db"));
    MainWindow window(QStringLiteral(DTSIM_EXECUTABLE));
    REQUIRE(window.open_database(QString::fromStdString(dir.file("runs.db"))));
    const auto inputs = window.open_files();
    const auto database = file_text(dir.file("runs.db"));
    REQUIRE_FALSE(database.empty());
    const auto run = test::synthetic_run(1, 2, RunKind::predicted);
    TimelineWidget timeline;
    timeline.resize(640, 200);
    timeline.set_store(std::make_shared<const SpanStore>(SpanStore::from_run(run)));

    // The open database is refused under any name, as a view or a trace, and stays as it was.
    const QString db = QString::fromStdString(dir.file("runs.db"));
    const QString other_name = QString::fromStdString(dir.path().string() + "/./runs.db");
    CHECK(export_widget(&timeline, db + QStringLiteral(".png"), inputs).isEmpty());
    for (const QString& error : {export_chrome_trace(run, db, inputs), export_chrome_trace(run, other_name, inputs)}) {
        CAPTURE(error.toStdString());
        CHECK(error.contains(QStringLiteral("is the runs database")));
    }
    std::filesystem::create_symlink(dir.file("runs.db"), dir.file("view.svg"));
    CHECK(export_widget(&timeline, QString::fromStdString(dir.file("view.svg")), inputs).contains(QStringLiteral("is the runs database")));
    CHECK(file_text(dir.file("runs.db")) == database);

    // An export replaces the file in one step: written beside it, renamed over it, nothing else left behind.
    const QString png = QString::fromStdString(dir.file("view.png"));
    std::ofstream(dir.file("view.png")) << "old";
    REQUIRE(export_widget(&timeline, png, inputs).isEmpty());
    CHECK(QImage(png).size() == timeline.size());
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        CHECK(entry.path().filename().string().rfind(".view.png.tmp-", 0) == std::string::npos);
    // A folder that cannot be written leaves the old file whole.
    std::filesystem::create_directories(dir.file("locked"));
    std::ofstream(dir.file("locked/view.png")) << "old";
    std::filesystem::permissions(dir.file("locked"), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    const QString locked = QString::fromStdString(dir.file("locked/view.png"));
    if (access(dir.file("locked").c_str(), W_OK) != 0) {  // root writes anywhere
        CHECK(export_widget(&timeline, locked, inputs).contains(QStringLiteral("cannot write")));
        CHECK(file_text(dir.file("locked/view.png")) == "old");
    }
    std::filesystem::permissions(dir.file("locked"), std::filesystem::perms::owner_all);
}

}  // namespace export_test
