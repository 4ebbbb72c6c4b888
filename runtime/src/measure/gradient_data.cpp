#include "gradient_data.hpp"

#include <algorithm>
#include <cmath>

namespace dtsim::runtime {

std::size_t gradient_elements(double bytes) { return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(bytes / 4))); }

float gradient_value(int worker, int iteration, int bucket, std::size_t element) {
    return static_cast<float>(worker + 1 + static_cast<int>((element + static_cast<std::size_t>(iteration + 3 * bucket)) % 8));
}

float summed_gradient_value(int workers, int iteration, int bucket, std::size_t element) {
    float sum = 0;
    for (int w = 0; w < workers; ++w) sum += gradient_value(w, iteration, bucket, element);
    return sum;
}

void fill_gradients(std::vector<float>& values, int worker, int iteration, int bucket, std::size_t first) {
    for (std::size_t j = 0; j < values.size(); ++j) values[j] = gradient_value(worker, iteration, bucket, first + j);
}

std::size_t count_wrong_sums(const std::vector<float>& values, int workers, int iteration, int bucket, std::size_t first,
                             float tolerance) {
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < values.size(); ++j)
        if (!(std::abs(values[j] - summed_gradient_value(workers, iteration, bucket, first + j)) <= tolerance)) ++wrong;
    return wrong;
}

float largest_summed_gradient(int workers) { return static_cast<float>(workers * (workers + 1) / 2 + 7 * workers); }

}  // namespace dtsim::runtime
