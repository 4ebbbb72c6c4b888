// A CNN layer's kernels against closed forms: the product carries all the layer's FLOPs, its input, output
// and weights, as an implicit GEMM of its channels and window; each epilogue kernel moves its fixed multiple
// of the output; the layer's time is bounded below by the rooflines of its work and per sample falls with
// the batch; a bad zoo entry names its key.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "dtsim/compute_model.hpp"
#include "dtsim/gemm_shape.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/model_zoo.hpp"
#include "test_support.hpp"

namespace cnn_kernels_test {

using namespace dtsim;

namespace {

double sum_of(const std::vector<Kernel>& kernels, double Kernel::*field) {
    double sum = 0;
    for (const auto& kernel : kernels) sum += kernel.*field;
    return sum;
}

double backward_elements(const std::vector<Kernel>& kernels) {
    double sum = 0;
    for (const auto& kernel : kernels)
        if (kernel.kind == KernelKind::memory) sum += kernel.backward_factor * kernel.elements;
    return sum;
}

std::string zoo_file(const test::TempDir& dir, const std::string& layer) {
    const auto path = dir.file("cnn.yaml");
    std::ofstream(path) << "name: cnn\ndescription: d\nsource: s\nsample: one image\npublished_parameters: 10\n"
                           "layers:\n  - " << layer << "\n";
    return path;
}

}  // namespace

TEST_CASE("a CNN layer's product has its FLOPs, input, output and weights; epilogues move multiples of the output",
          "[unit][zoo][kernels]") {
    const double flops = 1e9, params = 1e5, input = 2e5, output = 4e5;
    const auto kernels =
        convolution_kernels(flops, params, input, output, {100, 9}, {Epilogue::batchnorm, Epilogue::add, Epilogue::relu});
    REQUIRE(kernels.size() == 4);
    CHECK(kernels[0].kind == KernelKind::gemm);
    CHECK(kernels[0].flops == flops);
    CHECK(kernels[0].elements == input + output);
    CHECK(kernels[0].weight_elements == params);
    CHECK(kernels[0].backward_factor == 2);
    // Forward: BatchNorm 3 (statistics read, then read and write), add 3, ReLU 2 per output element;
    // backward: 5 + 3 + 3.
    CHECK(sum_of(kernels, &Kernel::elements) - kernels[0].elements == Approx(8 * output));
    CHECK(backward_elements(kernels) == Approx(11 * output));
    CHECK(sum_of(kernels, &Kernel::flops) == flops);
    CHECK(convolution_kernels(flops, params, input, output, {100, 9}, {}).size() == 1);
}

TEST_CASE("a convolution is an implicit GEMM: output positions × channels over input channels × window",
          "[unit][zoo][kernels][gemm]") {
    // A 3 × 3 convolution of 64 to 128 channels on a 56 × 56 output: rows 3136 per sample, depth 576.
    const double rows = 56 * 56, channels = 128, window = 9, depth = 64 * window;
    const double flops = 2 * rows * channels * depth;
    const auto product = convolution_kernels(flops, channels * depth, 64 * rows, channels * rows, {channels, window}, {})[0];
    CHECK(product.shape.rows == rows);
    CHECK(product.shape.columns == channels);
    CHECK(product.shape.depth == depth);
    // Backward: the input gradient convolves back over the window (rows × 64 over 128 · 9), the weight
    // gradient is depth × channels over the batch's rows; each at its shape's rate, memory free.
    const ComputeRates rates{100e12, 1e30, 0, 100e12, 132};
    const double batch = 32;
    const auto at = [&](GemmShape shape) { return batch * flops / (100e12 * gemm_shape_factor(shape, 132)); };
    CHECK(kernel_forward_s(product, batch, 2, rates) == Approx(at({batch * rows, channels, depth})).epsilon(1e-12));
    CHECK(kernel_backward_s(product, batch, 2, rates) ==
          Approx(at({batch * rows, 64, channels * window}) + at({depth, channels, batch * rows})).epsilon(1e-12));
}

TEST_CASE("every CNN zoo layer runs as kernels that carry its FLOPs and weights", "[unit][zoo][kernels]") {
    for (const char* name : {"resnet50", "resnet101", "vgg16", "inception_v3"}) {
        const auto model = load_zoo_model(name, "test");
        for (const auto& layer : model.layers) {
            CAPTURE(name, layer.name);
            REQUIRE(!layer.kernels.empty());
            CHECK(sum_of(layer.kernels, &Kernel::flops) == layer.forward_flops_per_sample);
            CHECK(sum_of(layer.kernels, &Kernel::weight_elements) == layer.params);
            CHECK(layer.kernels[0].elements > layer.activations_per_sample);  // reads an input as well
        }
    }
}

TEST_CASE("a CNN's time is at least its FLOPs at the GEMM rate and its traffic at the memory rate, and falls per sample with the batch",
          "[unit][zoo][kernels]") {
    const auto model = load_zoo_model("resnet50", "test");
    const ComputeRates rates{100e12, 1e12, 5e-6};
    double previous_per_sample = 1e300;
    for (int batch : {1, 8, 64, 256}) {
        const auto layers = layer_times(model, batch, Precision::fp16, rates);
        double step = 0, flops = 0, traffic = 0, element_wise = 0;
        for (const auto& layer : layers) step += layer.forward_s + layer.backward_s;
        for (const auto& layer : model.layers)
            for (const auto& kernel : layer.kernels) {
                const double passes = 1 + kernel.backward_factor;
                flops += passes * batch * kernel.flops;
                traffic += passes * (batch * kernel.elements + kernel.weight_elements) * 2;
                if (kernel.kind == KernelKind::memory) element_wise += passes * batch * kernel.elements * 2;
            }
        CAPTURE(batch);
        // Each kernel takes the larger of its compute and memory times, never less than either, never more
        // than both; every layer adds its fixed cost once forward and twice backward.
        CHECK(step >= flops / rates.flops_per_second);
        CHECK(step >= element_wise / rates.memory_bytes_per_second);
        const double fixed = 3 * static_cast<double>(model.layers.size()) * rates.per_kernel_s;
        CHECK(step <= (flops / rates.flops_per_second + traffic / rates.memory_bytes_per_second + fixed) * (1 + 1e-12));
        CHECK(step / batch <= previous_per_sample);
        previous_per_sample = step / batch;
    }
}

TEST_CASE("a zoo layer's kernels need both input and epilogue, epilogues from the vocabulary", "[unit][zoo][kernels]") {
    test::TempDir dir;
    const auto missing = zoo_file(dir, "{name: c, params: 10, flops: 100, activations: 4, input: 4, channels: 2, window: 1}");
    CHECK_THROWS_WITH(load_model(missing, "", "test"), Catch::Contains("cnn.yaml:") && Catch::Contains("'layers[0].epilogue'"));
    const auto no_window = zoo_file(dir, "{name: c, params: 10, flops: 100, activations: 4, input: 4, channels: 2, epilogue: []}");
    CHECK_THROWS_WITH(load_model(no_window, "", "test"), Catch::Contains("'layers[0].window'"));
    const auto unknown =
        zoo_file(dir, "{name: c, params: 10, flops: 100, activations: 4, input: 4, channels: 2, window: 1, epilogue: [gelu]}");
    CHECK_THROWS_WITH(load_model(unknown, "", "test"), Catch::Contains("batchnorm | relu | add") && Catch::Contains("'gelu'"));
    const auto scalar =
        zoo_file(dir, "{name: c, params: 10, flops: 100, activations: 4, input: 4, channels: 2, window: 1, epilogue: relu}");
    CHECK_THROWS_WITH(load_model(scalar, "", "test"), Catch::Contains("expected a list"));
    // 100 FLOPs over 4 outputs is a depth of 12.5: a window of 16 positions leaves no input channel.
    const auto wide = zoo_file(dir, "{name: c, params: 10, flops: 100, activations: 4, input: 4, channels: 2, window: 16, epilogue: []}");
    CHECK_THROWS_WITH(load_model(wide, "", "test"), Catch::Contains("'layers[0].window'") && Catch::Contains("12.5"));
    const auto many = zoo_file(dir, "{name: c, params: 10, flops: 100, activations: 4, input: 4, channels: 8, window: 1, epilogue: []}");
    CHECK_THROWS_WITH(load_model(many, "", "test"), Catch::Contains("'layers[0].channels'"));
    const auto plain = zoo_file(dir, "{name: c, params: 10, flops: 100, activations: 4}");
    CHECK(load_model(plain, "", "test").layers[0].kernels.empty());
}

}  // namespace cnn_kernels_test
