#include "codec_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "dtsim/calibrate/plan.hpp"
#include "gradient_data.hpp"
#include "half_precision.hpp"
#include "int8_quantization.hpp"
#include "powersgd.hpp"
#include "topk_compression.hpp"

namespace dtsim::runtime {
namespace {

// The measured runs' gradient values, so that data-dependent kernels (top-k selection) see the same input.
std::vector<float> gradients(std::size_t elements, int worker) {
    std::vector<float> values(elements);
    fill_gradients(values, worker, 0, 0);
    return values;
}

class HalfEncode : public Kernel {
public:
    explicit HalfEncode(std::size_t elements) : values_(gradients(elements, 0)) {}
    void start() override { encode_half(values_, halves_); }

private:
    std::vector<float> values_;
    std::vector<std::uint16_t> halves_;
};

class HalfDecode : public Kernel {
public:
    explicit HalfDecode(std::size_t elements) : values_(gradients(elements, 0)) { encode_half(values_, halves_); }
    void start() override { decode_half(halves_, values_); }

private:
    std::vector<float> values_;
    std::vector<std::uint16_t> halves_;
};

class Int8Encode : public Kernel {
public:
    explicit Int8Encode(std::size_t elements) : values_(gradients(elements, 0)), message_(int8_message_bytes(elements)) {}
    void start() override { quantize_int8(values_.data(), values_.size(), message_.data()); }

private:
    std::vector<float> values_;
    std::vector<unsigned char> message_;
};

// Writes the values (no accumulation): the cast back of the all-reduced bucket.
class Int8Decode : public Kernel {
public:
    explicit Int8Decode(std::size_t elements) : values_(gradients(elements, 0)), message_(int8_message_bytes(elements)) {
        quantize_int8(values_.data(), values_.size(), message_.data());
    }
    void start() override { dequantize_int8(message_.data(), values_.size(), values_.data(), false); }

private:
    std::vector<float> values_;
    std::vector<unsigned char> message_;
};

// Error feedback off: the residual's extra pass is priced from memory bandwidth by the simulator.
class TopkEncode : public Kernel {
public:
    explicit TopkEncode(std::size_t elements)
        : values_(gradients(elements, 0)), kept_(topk_count(elements, calibrate::kCodecTopkRatio)) {}
    void start() override { topk_encode(values_, kept_, nullptr, workspace_, selected_); }

private:
    std::vector<float> values_;
    std::size_t kept_;
    TopkWorkspace workspace_;
    std::vector<SparseEntry> selected_;
};

// The sum of kCodecTopkDecodeBlocks workers' selections, as after a measured run's all-gather.
class TopkDecode : public Kernel {
public:
    explicit TopkDecode(std::size_t elements) : values_(elements) {
        const auto kept = topk_count(elements, calibrate::kCodecTopkRatio);
        std::vector<SparseEntry> block;
        TopkWorkspace workspace;
        for (int worker = 0; worker < calibrate::kCodecTopkDecodeBlocks; ++worker) {
            topk_encode(gradients(elements, worker), kept, nullptr, workspace, block);
            gathered_.insert(gathered_.end(), block.begin(), block.end());
        }
    }
    void start() override { topk_decode_sum(gathered_, values_); }

private:
    std::vector<float> values_;
    std::vector<SparseEntry> gathered_;
};

// PowerSGD's factors of one bucket, as a measured run's first iteration holds them.
struct PowersgdFactors {
    PowersgdFactors(std::size_t elements, int rank)
        : values(gradients(elements, 0)), m(powersgd_side(elements)), r(static_cast<std::size_t>(rank)), q(initial_q(m, r, 1)) {}
    std::vector<float> values;
    std::size_t m, r;
    std::vector<float> q, matrix, p, approximation;
};

// Both of a measured run's encode spans (allreduce_worker.cpp), the all-reduces between them left out:
// the bucket into the zero-padded m×m matrix, P = M·Q, orthogonalise P, Q = Mᵀ·P. Error feedback off, as
// for top-k: its residual pass is priced from memory bandwidth.
void powersgd_encode(PowersgdFactors& f) {
    f.matrix.assign(f.m * f.m, 0.0f);
    std::copy(f.values.begin(), f.values.end(), f.matrix.begin());
    multiply_m_q(f.matrix, f.q, f.m, f.r, f.p);
    orthogonalise_columns(f.p, f.m, f.r);
    multiply_mt_p(f.matrix, f.p, f.m, f.r, f.q);
}

class PowersgdEncode : public Kernel {
public:
    PowersgdEncode(std::size_t elements, int rank) : factors_(elements, rank) {}
    void start() override { powersgd_encode(factors_); }

private:
    PowersgdFactors factors_;
};

// The decode span: M̂ = P·Qᵀ, copied back into the bucket.
class PowersgdDecode : public Kernel {
public:
    PowersgdDecode(std::size_t elements, int rank) : factors_(elements, rank) { powersgd_encode(factors_); }
    void start() override {
        multiply_p_qt(factors_.p, factors_.q, factors_.m, factors_.r, factors_.approximation);
        std::copy_n(factors_.approximation.begin(), factors_.values.size(), factors_.values.begin());
    }

private:
    PowersgdFactors factors_;
};

}  // namespace

std::unique_ptr<Kernel> make_codec_kernel(CodecKernel kernel, std::size_t fp32_bytes, int powersgd_rank) {
    const auto elements = gradient_elements(static_cast<double>(fp32_bytes));
    switch (kernel) {
        case CodecKernel::fp16_encode: return std::make_unique<HalfEncode>(elements);
        case CodecKernel::fp16_decode: return std::make_unique<HalfDecode>(elements);
        case CodecKernel::int8_encode: return std::make_unique<Int8Encode>(elements);
        case CodecKernel::int8_decode: return std::make_unique<Int8Decode>(elements);
        case CodecKernel::topk_encode: return std::make_unique<TopkEncode>(elements);
        case CodecKernel::topk_decode: return std::make_unique<TopkDecode>(elements);
        case CodecKernel::powersgd_encode: return std::make_unique<PowersgdEncode>(elements, powersgd_rank);
        case CodecKernel::powersgd_decode: return std::make_unique<PowersgdDecode>(elements, powersgd_rank);
    }
    throw std::invalid_argument("unknown codec kernel");
}

}  // namespace dtsim::runtime
