#include <QFile>
#include <QImage>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "timeline_widget.hpp"
#include "view_export.hpp"

using namespace dtsim;
using namespace dtsim::gui;

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
    CHECK(export_chrome_trace(run, QStringLiteral("/nonexistent-dir/run.json")).contains(QStringLiteral("nonexistent-dir")));
}
