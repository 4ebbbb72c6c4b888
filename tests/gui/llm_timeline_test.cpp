#include <QImage>
#include <algorithm>
#include <catch2/catch.hpp>

#include "dtsim/run_store.hpp"
#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "kind_palette.hpp"
#include "llm_spans.hpp"
#include "pipeline_stages.hpp"
#include "run_database.hpp"
#include "timeline_widget.hpp"

namespace llm_timeline_test {

using namespace dtsim;
using namespace dtsim::gui;
using dtsim::gui::test::kUnit;

namespace {

std::uint32_t dimension_rgb(Dimension d) { return kDimensionRgb[static_cast<size_t>(d)]; }

struct LlmTimeline {
    std::shared_ptr<const SpanStore> store = std::make_shared<const SpanStore>(SpanStore::from_run(test::llm_run()));
    TimelineWidget timeline;
    explicit LlmTimeline(int lane_width = 512) {
        // 10 rows (2 headers, 8 ranks) at the stage grouping's full 30 px height.
        timeline.resize(TimelineWidget::kLabelWidth + lane_width, TimelineWidget::kAxisHeight + 300);
        timeline.set_store(store, 0, pipeline_stages(test::llm_run(), *store));
    }
    // The colour at a time (in units) in a kind's strip of a row.
    QRgb at(const QImage& image, double units, int row, Lane kind) const {
        const int strip_height = 29 / 3;  // a row is 30 px, one of them the gap below
        const int y = TimelineWidget::kAxisHeight + row * 30 + strip_height * static_cast<int>(kind) + strip_height / 2;
        return image.pixel(timeline.x_at_time((units + 0.25) * kUnit), y) | 0xFF000000u;
    }
};

}  // namespace

TEST_CASE("gui::pipeline_stages: a run's LLM layout gives each rank its stage, a data-parallel run none", "[gui]") {
    const auto run = test::llm_run();
    const auto store = SpanStore::from_run(run);
    CHECK(pipeline_stages(run, store) == std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1});
    const auto plain = test::synthetic_run(2, 2, RunKind::predicted);
    CHECK(pipeline_stages(plain, SpanStore::from_run(plain)).empty());
    auto unreadable = run;
    unreadable.scenario_text = "training: {parallelism: {tensor: 3}}\n";  // does not divide the GPUs
    CHECK(pipeline_stages(unreadable, store).empty());

    SECTION("a stored run is loaded with its stages") {
        TemporaryDirectory dir("dtsim-gui-llm-db");
        {
            RunStore writer(dir.file("runs.db"));
            auto copy = run;
            writer.append(copy);
        }
        RunDatabase db(dir.file("runs.db"));
        CHECK(db.load(1)->pipeline_stages == std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1});
    }
}

TEST_CASE("gui::TimelineWidget: an LLM run's lanes are grouped by pipeline stage under headers", "[gui]") {
    LlmTimeline f;
    const auto& rows = f.timeline.rows();
    REQUIRE(rows.size() == 10);
    CHECK(rows[0].header);
    CHECK(rows[0].label == QStringLiteral("▾ stage 0 (4 ranks)"));
    CHECK(rows[0].rank_slots.empty());
    CHECK(rows[1].label == QStringLiteral("n0 gpu 0"));
    CHECK(rows[2].label == QStringLiteral("n0 gpu 2"));
    CHECK(rows[4].label == QStringLiteral("n1 gpu 6"));
    CHECK(rows[5].label == QStringLiteral("▾ stage 1 (4 ranks)"));
    CHECK(rows[6].rank_slots == std::vector<int>{1});
    CHECK(f.timeline.tooltip_at(QPoint(f.timeline.x_at_time(kUnit), TimelineWidget::kAxisHeight + 35))
              .contains(QStringLiteral("microbatch 0")));

    f.timeline.toggle_group(1);
    REQUIRE(rows.size() == 6);
    CHECK(rows[5].collapsed_group);
    CHECK(rows[5].label == QStringLiteral("▸ stage 1 (4 ranks)"));
    CHECK(rows[5].rank_slots == std::vector<int>{1, 3, 5, 7});

    CHECK(f.timeline.set_lane_filter(QStringLiteral("stage 0|gpu 7$")));
    REQUIRE(rows.size() == 6);  // stage 0's four ranks, and gpu 7 in collapsed stage 1
    CHECK(rows[5].rank_slots == std::vector<int>{7});

    // A data-parallel run in the same widget is grouped by node again, every group expanded.
    f.timeline.set_store(std::make_shared<const SpanStore>(SpanStore::from_run(test::synthetic_run(2, 2, RunKind::predicted))));
    CHECK(f.timeline.set_lane_filter(QString()));
    REQUIRE(rows.size() == 4);
    CHECK_FALSE(rows[0].header);
    CHECK(rows[0].label == QStringLiteral("n0 gpu 0"));
}

TEST_CASE("gui::llm_span_marks: passes by microbatch, communication by dimension, bubbles", "[gui]") {
    CHECK(pass_label("forward", 3) == "F3");
    CHECK(pass_label("backward", 3) == "B3");
    CHECK(pass_label("recompute", 12) == "R12");
    CHECK(pass_label("optimizer", 0).empty());
    CHECK(comm_dimension("tp allreduce") == Dimension::tp);
    CHECK(comm_dimension("cp allgather") == Dimension::cp);
    CHECK(comm_dimension("ep alltoall") == Dimension::ep);
    CHECK(comm_dimension("pp send") == Dimension::pp);
    CHECK(comm_dimension("dp reduce-scatter") == Dimension::dp);
    CHECK_FALSE(comm_dimension("allreduce"));
    CHECK_FALSE(comm_dimension("tpx allreduce"));

    const auto store = SpanStore::from_run(test::llm_run());
    auto labels = [](const std::vector<SpanMark>& marks) {
        std::vector<std::string> out;
        for (const auto& m : marks)
            if (!m.label.empty()) out.push_back(m.label);
        return out;
    };
    auto count = [](const std::vector<SpanMark>& marks, std::uint32_t rgb) {
        return std::count_if(marks.begin(), marks.end(), [rgb](const SpanMark& m) { return m.rgb == rgb; });
    };
    SECTION("zoomed in: 8 px per unit, wide enough for two characters of 6 px") {
        const auto marks = llm_span_marks(store, 0, 0, kUnit / 8, 256, 6);
        CHECK(labels(marks) == std::vector<std::string>{"F0", "F1", "F2", "F3", "B0", "B1", "B2", "B3"});
        const auto f1 = std::find_if(marks.begin(), marks.end(), [](const SpanMark& m) { return m.label == "F1"; });
        CHECK(f1->x0 == 16);
        CHECK(f1->x1 == 32);
        CHECK(count(marks, dimension_rgb(Dimension::tp)) == 4);
        CHECK(count(marks, dimension_rgb(Dimension::pp)) == 4);
        CHECK(count(marks, dimension_rgb(Dimension::dp)) == 1);
        CHECK(count(marks, kBubbleRgb) == 1);
        CHECK(llm_span_marks(store, 1, 0, kUnit / 8, 256, 6).front().x0 == 16);  // stage 1 starts a forward later
    }
    SECTION("zoomed out: 2 px per unit, no label fits but the colours stay") {
        const auto marks = llm_span_marks(store, 0, 0, kUnit / 2, 64, 6);
        CHECK(labels(marks).empty());
        CHECK(count(marks, dimension_rgb(Dimension::tp)) == 4);
        CHECK(count(marks, kBubbleRgb) == 1);
    }
}

TEST_CASE("gui::TimelineWidget: an LLM run shows communication by dimension, bubbles and pass labels", "[gui]") {
    LlmTimeline f;  // 16 px per unit
    const QImage image = f.timeline.grab().toImage().convertToFormat(QImage::Format_RGB32);
    // Row 1 is gpu 0 (stage 0), row 6 gpu 1 (stage 1).
    CHECK(f.at(image, 1, 1, Lane::comm) == dimension_rgb(Dimension::tp));
    CHECK(f.at(image, 2, 1, Lane::comm) == dimension_rgb(Dimension::pp));
    CHECK(f.at(image, 29, 1, Lane::comm) == dimension_rgb(Dimension::dp));
    CHECK(f.at(image, 0, 6, Lane::wait) == kBubbleRgb);
    CHECK(f.at(image, 10, 1, Lane::wait) == kBubbleRgb);
    CHECK(f.at(image, 0, 6, Lane::compute) == kLaneBackgroundRgb);  // stage 1 idles in its bubble
    CHECK(f.at(image, 0, 0, Lane::comm) != dimension_rgb(Dimension::tp));  // the header row has no lanes
    // A backward pass (64 px) carries its label: light pixels inside the compute strip.
    const int y0 = TimelineWidget::kAxisHeight + 30;
    int light = 0;
    for (int x = f.timeline.x_at_time(12 * kUnit); x < f.timeline.x_at_time(16 * kUnit); ++x)
        for (int y = y0; y < y0 + 9; ++y) light += qGray(image.pixel(x, y)) > 200;
    CHECK(light > 5);
}

TEST_CASE("gui::TimelineWidget: a data-parallel run keeps the plain kind colours", "[gui]") {
    TimelineWidget timeline;
    timeline.resize(TimelineWidget::kLabelWidth + 768, TimelineWidget::kAxisHeight + 200);
    timeline.set_store(std::make_shared<const SpanStore>(SpanStore::from_run(test::synthetic_run(2, 2, RunKind::predicted))));
    const QImage image = timeline.grab().toImage().convertToFormat(QImage::Format_RGB32);
    // allreduce [8,14) of rank 0: the comm strip of an 18 px row (strips of 5 and 6 px).
    const QRgb comm = image.pixel(timeline.x_at_time(10 * kUnit), TimelineWidget::kAxisHeight + 8) | 0xFF000000u;
    CHECK(comm == kKindRgb[static_cast<size_t>(Lane::comm)]);
}

}  // namespace llm_timeline_test
