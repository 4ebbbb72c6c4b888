#pragma once
// Real gradient values with a known sum: worker w's element j of bucket k in iteration i is a small
// integer, so sums over any number of workers are exact in float and every rank can check a result.
#include <cstddef>
#include <vector>

namespace dtsim::runtime {

/// Elements (fp32) that carry `bytes` of gradients; at least one.
std::size_t gradient_elements(double bytes);

float gradient_value(int worker, int iteration, int bucket, std::size_t element);
/// The value every worker should hold after summing over `workers` workers.
float summed_gradient_value(int workers, int iteration, int bucket, std::size_t element);

/// Fills elements [first, first + values.size()) of the bucket with worker `worker`'s gradients.
void fill_gradients(std::vector<float>& values, int worker, int iteration, int bucket, std::size_t first = 0);
/// How many elements of `values` (elements [first, ...) of the bucket) differ from the sum over `workers`
/// by more than `tolerance`.
std::size_t count_wrong_sums(const std::vector<float>& values, int workers, int iteration, int bucket, std::size_t first = 0,
                             float tolerance = 0);
/// The largest sum over `workers` any element can have.
float largest_summed_gradient(int workers);

}  // namespace dtsim::runtime
