#include "powersgd.hpp"

#include <cmath>
#include <random>

namespace dtsim::runtime {

std::size_t powersgd_side(std::size_t elements) {
    return static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(elements))));
}

void multiply_m_q(const std::vector<float>& m_matrix, const std::vector<float>& q, std::size_t m, std::size_t r, std::vector<float>& p) {
    p.assign(m * r, 0.0f);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t k = 0; k < m; ++k) {
            const float a = m_matrix[i * m + k];
            if (a == 0) continue;
            for (std::size_t j = 0; j < r; ++j) p[i * r + j] += a * q[k * r + j];
        }
}

void orthogonalise_columns(std::vector<float>& p, std::size_t m, std::size_t r) {
    for (std::size_t j = 0; j < r; ++j) {
        for (std::size_t earlier = 0; earlier < j; ++earlier) {
            double dot = 0;
            for (std::size_t i = 0; i < m; ++i) dot += static_cast<double>(p[i * r + j]) * p[i * r + earlier];
            for (std::size_t i = 0; i < m; ++i) p[i * r + j] -= static_cast<float>(dot) * p[i * r + earlier];
        }
        double norm = 0;
        for (std::size_t i = 0; i < m; ++i) norm += static_cast<double>(p[i * r + j]) * p[i * r + j];
        if (norm <= 0) continue;
        const auto scale = static_cast<float>(1 / std::sqrt(norm));
        for (std::size_t i = 0; i < m; ++i) p[i * r + j] *= scale;
    }
}

void multiply_mt_p(const std::vector<float>& m_matrix, const std::vector<float>& p, std::size_t m, std::size_t r, std::vector<float>& q) {
    q.assign(m * r, 0.0f);
    for (std::size_t k = 0; k < m; ++k)
        for (std::size_t i = 0; i < m; ++i) {
            const float a = m_matrix[k * m + i];  // Mᵀ[i][k]
            if (a == 0) continue;
            for (std::size_t j = 0; j < r; ++j) q[i * r + j] += a * p[k * r + j];
        }
}

void multiply_p_qt(const std::vector<float>& p, const std::vector<float>& q, std::size_t m, std::size_t r, std::vector<float>& out) {
    out.assign(m * m, 0.0f);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t k = 0; k < m; ++k) {
            float sum = 0;
            for (std::size_t j = 0; j < r; ++j) sum += p[i * r + j] * q[k * r + j];
            out[i * m + k] = sum;
        }
}

std::vector<float> initial_q(std::size_t m, std::size_t r, unsigned seed) {
    std::mt19937 random(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> q(m * r);
    for (auto& x : q) x = normal(random);
    return q;
}

}  // namespace dtsim::runtime
