// A CNN layer's kernels in training (docs/architecture.md, "Compute"): the convolution or matrix multiply,
// then the element-wise kernels over its output. Element counts are per output element and forward;
// each backward factor is the backward kernel's traffic over the forward's.
#include "dtsim/model_zoo.hpp"

namespace dtsim {

namespace {

struct ElementWise {
    double elements;         // read plus written per output element, forward
    double backward_factor;  // backward traffic / forward traffic
};

// BatchNorm reads its input for the batch statistics, then reads it again and writes the normalised output
// (3); its backward reads the input and the incoming gradient for the reductions, then both again, and
// writes the outgoing gradient (5). ReLU reads and writes (2); its backward reads the output and the
// gradient and writes one (3). A residual add reads two and writes one (3); backward hands the gradient to
// both branches unchanged, and the two meet again in one sum at the block's input (3).
ElementWise traffic(Epilogue kernel) {
    switch (kernel) {
        case Epilogue::batchnorm: return {3, 5.0 / 3};
        case Epilogue::relu: return {2, 1.5};
        case Epilogue::add: return {3, 1};
    }
    return {0, 0};
}

}  // namespace

std::vector<Kernel> convolution_kernels(double flops, double params, double input, double output, ConvolutionShape shape,
                                        const std::vector<Epilogue>& epilogue) {
    // The product's backward is two of the same size: the input gradient and the weight gradient.
    Kernel product{KernelKind::gemm, flops, input + output, params, 2, true};
    product.shape = GemmShape{output / shape.channels, shape.channels, flops / (2 * output)};
    product.window = shape.window;
    std::vector<Kernel> kernels{product};
    for (const auto kernel : epilogue) {
        const auto pass = traffic(kernel);
        kernels.push_back(Kernel{KernelKind::memory, 0, pass.elements * output, 0, pass.backward_factor, true});
    }
    return kernels;
}

}  // namespace dtsim
