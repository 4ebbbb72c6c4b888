#include <QApplication>
#include <QTest>
#include <QWheelEvent>
#include <catch2/catch.hpp>

#include "gui_fixtures.hpp"
#include "timeline_widget.hpp"

namespace timeline_interaction_test {

using namespace dtsim;
using namespace dtsim::gui;
using dtsim::gui::test::kUnit;

namespace {

// 768 lane pixels over the 48-unit run: 16 pixels per unit, so pixel edges are exact times.
struct TimelineFixture {
    TimelineWidget timeline;
    TimelineFixture() {
        timeline.resize(TimelineWidget::kLabelWidth + 768, TimelineWidget::kAxisHeight + 200);
        timeline.set_store(std::make_shared<const SpanStore>(SpanStore::from_run(test::synthetic_run(2, 2, RunKind::predicted))));
    }
    int x(double units) const { return timeline.x_at_time(units * kUnit); }
    double start() const { return timeline.range().start() / kUnit; }
    double width() const { return timeline.range().width() / kUnit; }
};

}  // namespace

TEST_CASE("gui::TimelineWidget: W/S zoom around the centre, A/D pan", "[gui]") {
    TimelineFixture f;
    REQUIRE(f.width() == Approx(48));
    QTest::keyClick(&f.timeline, Qt::Key_W);
    CHECK(f.width() == Approx(48 * 0.8));
    CHECK(f.start() == Approx(48 * 0.1));
    QTest::keyClick(&f.timeline, Qt::Key_D);
    CHECK(f.start() == Approx(48 * 0.1 + 0.1 * 38.4));
    QTest::keyClick(&f.timeline, Qt::Key_A);
    QTest::keyClick(&f.timeline, Qt::Key_A);
    CHECK(f.start() == Approx(48 * 0.1 - 0.1 * 38.4));
    QTest::keyClick(&f.timeline, Qt::Key_A);  // stops at the run's start
    CHECK(f.start() == 0);
    QTest::keyClick(&f.timeline, Qt::Key_S);
    CHECK(f.width() == Approx(48));
}

TEST_CASE("gui::TimelineWidget: Ctrl+wheel zooms around the cursor, a plain wheel does not zoom", "[gui]") {
    TimelineFixture f;
    const QPointF cursor(f.x(12), 40);  // a quarter into the lanes
    auto wheel = [&](Qt::KeyboardModifiers modifiers, int delta) {
        QWheelEvent event(cursor, f.timeline.mapToGlobal(cursor), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(&f.timeline, &event);
    };
    wheel(Qt::NoModifier, 120);
    CHECK(f.width() == Approx(48));
    wheel(Qt::ControlModifier, 240);
    CHECK(f.width() == Approx(48 * 0.64));
    CHECK(f.start() + 0.25 * f.width() == Approx(12));  // the time under the cursor stays put
    wheel(Qt::ControlModifier, -240);
    CHECK(f.width() == Approx(48));
}

TEST_CASE("gui::TimelineWidget: dragging pans by the dragged time", "[gui]") {
    TimelineFixture f;
    QTest::keyClick(&f.timeline, Qt::Key_W);
    QTest::keyClick(&f.timeline, Qt::Key_W);  // 30.72 units wide, from 8.64
    const double before = f.start();
    QTest::mousePress(&f.timeline, Qt::LeftButton, Qt::NoModifier, QPoint(500, 60));
    QTest::mouseMove(&f.timeline, QPoint(400, 60));
    QTest::mouseRelease(&f.timeline, Qt::LeftButton, Qt::NoModifier, QPoint(400, 60));
    CHECK(f.start() == Approx(before + 100 * f.width() / 768));
}

TEST_CASE("gui::TimelineWidget: Shift+drag selects an area and reports its exact totals", "[gui]") {
    TimelineFixture f;
    const int row0 = TimelineWidget::kAxisHeight + 4;
    const int row1 = TimelineWidget::kAxisHeight + 18 + 4;  // rows are 18 pixels tall here
    QString reported;
    QObject::connect(&f.timeline, &TimelineWidget::selection_changed, [&](const QString& text) { reported = text; });
    // From 2 to 9 units over ranks 0 and 1: forward and backward (7 units each), allreduce (1 each).
    QTest::mousePress(&f.timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(f.x(2), row0));
    QTest::mouseMove(&f.timeline, QPoint(f.x(9) - 1, row1));
    QTest::mouseRelease(&f.timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(f.x(9) - 1, row1));
    const auto& selection = f.timeline.selection();
    REQUIRE(selection);
    CHECK(selection->t0 == 2 * kUnit);
    CHECK(selection->t1 == 9 * kUnit);
    CHECK(selection->rank_slots == std::vector<int>{0, 1});
    CHECK(selection->totals.count == std::array<std::int64_t, 3>{4, 2, 0});
    CHECK(selection->totals.seconds[0] == 14 * kUnit);
    CHECK(selection->totals.seconds[1] == 2 * kUnit);
    CHECK(reported.contains(QStringLiteral("compute: 4 spans")));
    CHECK(reported.contains(QStringLiteral("× 2 ranks")));
}

TEST_CASE("gui::TimelineWidget: the tooltip names the span under the cursor", "[gui]") {
    TimelineFixture f;
    const int comm_strip = TimelineWidget::kAxisHeight + 9;  // the middle third of rank 0's row
    const QString text = f.timeline.tooltip_at(QPoint(f.x(11), comm_strip));
    CHECK(text.contains(QStringLiteral("allreduce (communication)")));
    CHECK(text.contains(QStringLiteral("bucket 0, iteration 0")));
    CHECK(text.contains(QStringLiteral("25")));
    CHECK(text.contains(QStringLiteral("duration: 5.859 ms")));  // 6 units
    CHECK(f.timeline.tooltip_at(QPoint(f.x(15), comm_strip)).isEmpty());
}

TEST_CASE("gui::TimelineWidget: lane filter and collapsed nodes", "[gui]") {
    TimelineFixture f;
    REQUIRE(f.timeline.rows().size() == 4);
    CHECK(f.timeline.set_lane_filter(QStringLiteral("gpu [13]$")));
    CHECK(f.timeline.rows().size() == 2);
    CHECK(f.timeline.rows()[1].label == QStringLiteral("n1 gpu 3"));
    CHECK_FALSE(f.timeline.set_lane_filter(QStringLiteral("(")));
    CHECK(f.timeline.rows().size() == 2);  // an invalid pattern keeps the last good one
    CHECK(f.timeline.set_lane_filter(QString()));
    f.timeline.toggle_group(0);
    REQUIRE(f.timeline.rows().size() == 3);
    CHECK(f.timeline.rows()[0].collapsed_group);
    CHECK(f.timeline.rows()[0].rank_slots == std::vector<int>{0, 1});
    // Clicking a label toggles its node back.
    QTest::mouseClick(&f.timeline, Qt::LeftButton, Qt::NoModifier, QPoint(20, TimelineWidget::kAxisHeight + 5));
    CHECK(f.timeline.rows().size() == 4);
}

}  // namespace timeline_interaction_test
