#pragma once
// PowerSGD's small matrix products (Vogels et al., 2019) on a bucket seen as an m×m matrix M (row-major,
// zero-padded, m = ceil(sqrt(n)) as the simulator takes it) with rank-r factors: P = M·Q, all-reduce P,
// orthogonalise P, Q = Mᵀ·P, all-reduce Q, M̂ = P·Qᵀ. The all-reduces happen between these calls.
#include <cstddef>
#include <vector>

namespace dtsim::runtime {

std::size_t powersgd_side(std::size_t elements);

/// P (m×r) = M (m×m) · Q (m×r).
void multiply_m_q(const std::vector<float>& m_matrix, const std::vector<float>& q, std::size_t m, std::size_t r, std::vector<float>& p);
/// Gram-Schmidt on P's r columns: orthonormal afterwards (a zero column stays zero).
void orthogonalise_columns(std::vector<float>& p, std::size_t m, std::size_t r);
/// Q (m×r) = Mᵀ (m×m) · P (m×r).
void multiply_mt_p(const std::vector<float>& m_matrix, const std::vector<float>& p, std::size_t m, std::size_t r, std::vector<float>& q);
/// M̂ (m×m) = P · Qᵀ.
void multiply_p_qt(const std::vector<float>& p, const std::vector<float>& q, std::size_t m, std::size_t r, std::vector<float>& out);
/// The starting Q every worker shares: seeded, the same on every rank.
std::vector<float> initial_q(std::size_t m, std::size_t r, unsigned seed);

}  // namespace dtsim::runtime
