#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "dtsim/data_paths.hpp"
#include "dtsim/model_zoo.hpp"

using namespace dtsim;

TEST_CASE("zoo parameter totals are within 1 % of the published counts", "[unit][zoo]") {
    const auto names = list_data_names("models");
    REQUIRE(names.size() >= 15);
    for (const auto& name : names) {
        const auto model = load_zoo_model(name, "test");
        // GPT-3's published sizes (Brown et al. 2020, Table 2.1) are rounded names: its own dimensions give
        // 355.9M for "350M", 1.316B for "1.3B" and 2.652B for "2.7B". Those are checked within 2 %.
        const double tolerance = name.rfind("gpt3-", 0) == 0 ? 0.02 : 0.01;
        CAPTURE(name, model.total_parameters(), model.published_parameters);
        CHECK(std::fabs(model.total_parameters() / model.published_parameters - 1) <= tolerance);
        CHECK(model.forward_flops_per_sample() > 0);
    }
}

TEST_CASE("zoo models have the well-known sizes", "[unit][zoo]") {
    CHECK(load_zoo_model("resnet50", "test").total_parameters() == 25557032);
    CHECK(load_zoo_model("vgg16", "test").total_parameters() == 138357544);
    CHECK(load_zoo_model("bert_large", "test").total_parameters() == Approx(335141888).epsilon(0.01));
    // ResNet-50 forward is about 4.1 GMACs per 224x224 image.
    CHECK(load_zoo_model("resnet50", "test").forward_flops_per_sample() == Approx(8.2e9).epsilon(0.02));
}
