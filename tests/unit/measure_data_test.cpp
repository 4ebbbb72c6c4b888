// The pure pieces of dtsim-runtime measure: the fp16 cast, the known gradient sums, the server shards.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>

#include "gradient_data.hpp"
#include "half_precision.hpp"
#include "int8_quantization.hpp"
#include "parameter_server_shards.hpp"
#include "powersgd.hpp"
#include "topk_compression.hpp"

namespace measure_data_test {

using namespace dtsim;
using namespace dtsim::runtime;

TEST_CASE("the fp16 cast is exact where fp16 can hold the value and rounds to nearest even elsewhere", "[unit][measure]") {
    for (float exact : {0.0f, 1.0f, -2.5f, 65504.0f, 0.000061035156f /* 2^-14 */, 0.000000059604645f /* 2^-24 */, 1024.0f, 3.0f})
        CHECK(from_half(to_half(exact)) == exact);
    CHECK(to_half(1.0f) == 0x3c00);
    CHECK(to_half(-2.0f) == 0xc000);
    // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1); 1 + 3·2^-11 goes up.
    CHECK(from_half(to_half(1.0f + std::ldexp(1.0f, -11))) == 1.0f);
    CHECK(from_half(to_half(1.0f + 3 * std::ldexp(1.0f, -11))) == 1.0f + std::ldexp(1.0f, -9));
    CHECK(std::isinf(from_half(to_half(70000.0f))));
    CHECK(std::isnan(from_half(to_half(std::numeric_limits<float>::quiet_NaN()))));
    // Normal values: relative error at most 2^-11 (half a unit in the last place of a 10-bit mantissa).
    for (float v = 6.2e-5f; v < 6.0e4f; v *= 1.37f) {
        CAPTURE(v);
        CHECK(std::abs(from_half(to_half(v)) - v) <= v * std::ldexp(1.0f, -11));
    }
}

TEST_CASE("the fp16 sum gives, bit for bit, the software cast of the fp32 sum", "[unit][measure]") {
    // Every class of value, in counts that leave a tail after the 8-wide blocks: normals, subnormals, ties,
    // overflow to infinity, signed zeros.
    std::vector<std::uint16_t> target, incoming;
    for (std::uint32_t a = 0; a < 0x10000u; a += 37)
        for (std::uint16_t b : {std::uint16_t{0x0000}, std::uint16_t{0x8000}, std::uint16_t{0x0001}, std::uint16_t{0x3c01},
                                std::uint16_t{0x7bff}, std::uint16_t{0xfbff}, std::uint16_t{0x03ff}}) {
            if (((a >> 10) & 0x1fu) == 0x1fu) continue;  // infinities and NaNs are not gradients
            target.push_back(static_cast<std::uint16_t>(a));
            incoming.push_back(b);
        }
    target.pop_back();  // an odd count: the last elements go through the scalar tail
    incoming.pop_back();
    auto expected = target;
    for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = to_half(from_half(expected[i]) + from_half(incoming[i]));
    add_halves(target.data(), incoming.data(), target.size());
    CHECK(target == expected);
}

TEST_CASE("gradient values are small integers whose sums over workers are exact", "[unit][measure]") {
    std::vector<float> sum(100, 0.0f), one(100);
    for (int w = 0; w < 5; ++w) {
        fill_gradients(one, w, 3, 2, 40);
        for (size_t j = 0; j < sum.size(); ++j) sum[j] += one[j];
    }
    CHECK(count_wrong_sums(sum, 5, 3, 2, 40) == 0);
    sum[7] += 1;
    CHECK(count_wrong_sums(sum, 5, 3, 2, 40) == 1);
    CHECK(count_wrong_sums(sum, 5, 4, 2, 40) > 90);  // another iteration's sums differ almost everywhere
    CHECK(gradient_elements(1e6) == 250000);
    CHECK(gradient_elements(1) == 1);
}

TEST_CASE("shards cover every element of a bucket exactly once", "[unit][measure]") {
    const auto by_size = shards_of_bucket(10, 3, 4, Sharding::by_size);
    REQUIRE(by_size.size() == 4);
    std::size_t next = 0;
    for (size_t p = 0; p < by_size.size(); ++p) {
        CHECK(by_size[p].server == static_cast<int>(p));
        CHECK(by_size[p].first == next);
        next += by_size[p].count;
    }
    CHECK(next == 10);
    CHECK(shards_of_bucket(2, 0, 4, Sharding::by_size).size() == 2);  // servers with nothing to hold get no shard
    const auto whole = shards_of_bucket(10, 5, 4, Sharding::round_robin);
    REQUIRE(whole.size() == 1);
    CHECK(whole[0].server == 1);
    CHECK(whole[0].count == 10);
}

TEST_CASE("top-k keeps the largest magnitudes exactly, and error feedback keeps what was dropped", "[unit][measure]") {
    std::vector<float> values{0.5f, -4.0f, 1.0f, 3.0f, -0.25f, 2.0f};
    CHECK(topk_count(values.size(), 0.5) == 3);
    CHECK(topk_count(1000, 1e-9) == 1);
    std::vector<SparseEntry> kept;
    std::vector<float> residual;
    TopkWorkspace workspace;
    topk_encode(values, 3, &residual, workspace, kept);
    std::vector<float> decoded(values.size());
    topk_decode_sum(kept, decoded);
    CHECK(decoded == std::vector<float>{0, -4.0f, 0, 3.0f, 0, 2.0f});
    CHECK(residual == std::vector<float>{0.5f, 0, 1.0f, 0, -0.25f, 0});
    // The residual joins the next gradient: with a zero gradient, the largest leftover goes out next.
    topk_encode(std::vector<float>(values.size(), 0.0f), 1, &residual, workspace, kept);
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].index == 2);
    CHECK(kept[0].value == 1.0f);

    SECTION("a bucket's next encode reuses the memory of the last: no allocation, so no page faults timed") {
        const std::set<const float*> buffers{residual.data(), workspace.corrected.data()};
        const auto* order = workspace.order.data();
        topk_encode(values, 2, &residual, workspace, kept);
        CHECK(std::set<const float*>{residual.data(), workspace.corrected.data()} == buffers);
        CHECK(workspace.order.data() == order);
        CHECK(kept.size() == 2);
    }
    SECTION("dropping loses at most (1 - k/n) of the squared norm, and sums add every worker's pairs") {
        std::vector<float> v(1000);
        for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(static_cast<float>(i) * 0.7f) * static_cast<float>(i % 13);
        topk_encode(v, 100, nullptr, workspace, kept);
        std::vector<float> sparse(v.size());
        topk_decode_sum(kept, sparse);
        double dropped = 0, total = 0;
        for (size_t i = 0; i < v.size(); ++i) {
            dropped += (v[i] - sparse[i]) * (v[i] - sparse[i]);
            total += v[i] * v[i];
        }
        CHECK(dropped <= total * (1 - 100.0 / 1000.0));
        auto twice = kept;
        twice.insert(twice.end(), kept.begin(), kept.end());
        std::vector<float> doubled(v.size());
        topk_decode_sum(twice, doubled);
        for (const auto& e : kept) CHECK(doubled[e.index] == 2 * e.value);
    }
}

TEST_CASE("int8 quantization returns every value within half a step of max|x| / 127", "[unit][measure]") {
    std::vector<float> v(257);
    for (size_t i = 0; i < v.size(); ++i) v[i] = std::cos(static_cast<float>(i)) * 3.5f;
    std::vector<unsigned char> message(int8_message_bytes(v.size()));
    CHECK(message.size() == v.size() + 4);
    quantize_int8(v.data(), v.size(), message.data());
    std::vector<float> back(v.size(), 1.0f);
    dequantize_int8(message.data(), v.size(), back.data(), false);
    const float step = *std::max_element(v.begin(), v.end(), [](float a, float b) { return std::abs(a) < std::abs(b); }) / 127;
    for (size_t i = 0; i < v.size(); ++i) CHECK(std::abs(back[i] - v[i]) <= std::abs(step) / 2 * 1.0001f);
    dequantize_int8(message.data(), v.size(), back.data(), true);  // accumulating adds the same values again
    for (size_t i = 0; i < v.size(); ++i) CHECK(std::abs(back[i] - 2 * v[i]) <= std::abs(step) * 1.0001f);
    std::vector<float> zeros(8, 0.0f), out(8, 5.0f);
    quantize_int8(zeros.data(), zeros.size(), message.data());
    dequantize_int8(message.data(), zeros.size(), out.data(), false);
    CHECK(out == zeros);
}

TEST_CASE("PowerSGD reconstructs a matrix of rank at most r exactly and gives orthonormal factors", "[unit][measure]") {
    const std::size_t m = 6, r = 2;
    CHECK(powersgd_side(30) == 6);
    std::vector<float> matrix(m * m);
    for (std::size_t i = 0; i < m; ++i)  // rank 2: u1 v1ᵀ + u2 v2ᵀ
        for (std::size_t k = 0; k < m; ++k)
            matrix[i * m + k] = static_cast<float>((i + 1) * (k % 3)) + static_cast<float>((i % 2) * (k + 2));
    std::vector<float> p, q = initial_q(m, r, 7), approximation;
    CHECK(initial_q(m, r, 7) == q);  // every rank starts from the same Q
    multiply_m_q(matrix, q, m, r, p);
    orthogonalise_columns(p, m, r);
    for (std::size_t a = 0; a < r; ++a)
        for (std::size_t b = 0; b < r; ++b) {
            double dot = 0;
            for (std::size_t i = 0; i < m; ++i) dot += p[i * r + a] * p[i * r + b];
            CHECK(dot == Approx(a == b ? 1.0 : 0.0).margin(1e-5));
        }
    multiply_mt_p(matrix, p, m, r, q);
    multiply_p_qt(p, q, m, r, approximation);
    for (std::size_t i = 0; i < m * m; ++i) CHECK(approximation[i] == Approx(matrix[i]).margin(1e-3));
}

}  // namespace measure_data_test
