#pragma once
// Two runs of a scenario side by side (`dtsim compare`, the GUI): the summary metrics, each rank's time
// per iteration, and the relative error of one against the other.
//
// One run is the reference and the errors are the other's: (other - reference) / reference. When exactly
// one of the two is measured, the measured run is the reference (a prediction is judged against what
// happened); otherwise the first run given is.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtsim/run.hpp"

namespace dtsim {

struct ComparedValue {
    double reference = 0;
    double other = 0;
    /// (other - reference) / |reference|; nullopt when the reference is 0 and the other is not.
    std::optional<double> relative_error() const;
};

/// How a metric's values read: seconds with a unit, a fraction (printed as a percentage), a rate per second
/// (samples, tokens, TFLOP/s), or bytes.
enum class MetricFormat { seconds, share, rate, bytes };

struct MetricComparison {
    std::string key;    // "iteration_time_s", "compute_share", ... (the JSON summary's names)
    std::string label;  // "iteration time"
    ComparedValue value;
    MetricFormat format = MetricFormat::seconds;
};

/// A rank's compute, communication and wait time per iteration, from its spans (iterations after the first,
/// as the summary counts them, unless there is only one).
struct RankTimes {
    int rank = 0;
    std::string label;
    double compute_s = 0;
    double comm_s = 0;
    double wait_s = 0;
};

struct RankComparison {
    int rank = 0;
    std::string label;
    ComparedValue compute_s;
    ComparedValue comm_s;
    ComparedValue wait_s;
};

struct RunComparison {
    bool reference_is_first = true;  // false: the second run given is the reference (it is the measured one)
    std::vector<MetricComparison> metrics;
    std::vector<RankComparison> ranks;  // ranks present in both runs, when both have spans
    /// The error the verdict quotes: the iteration time's.
    std::optional<double> iteration_time_error() const;
};

std::vector<RankTimes> per_rank_times(const Run& run);

/// A value of `metric` as a reader expects it: a percentage for shares, a rate, bytes, else seconds with a unit.
std::string format_metric_value(const MetricComparison& metric, double value);
/// "+12.50 %", "-3.00 %", or "n/a" when the reference is 0.
std::string format_relative_error(const ComparedValue& value);

/// Compares `first` and `second`; which is the reference follows the rule above. The large-model rows
/// (tokens/s, MFU, HFU, TFLOP/s, bubble, exposed communication per dimension, memory per GPU) are there
/// where either run has a value for them.
RunComparison compare_runs(const Run& first, const Run& second);

/// One line: "prediction within 3.2 % from measurement (iteration time; ...)", or "off by 41.6 %" beyond 10 %.
std::string comparison_verdict(const RunComparison& comparison, const Run& reference, const Run& other);

/// The --json document of `dtsim compare`; `names` say where each run came from ("run 3", "a.json").
nlohmann::ordered_json comparison_json(const RunComparison& comparison, const Run& reference, const std::string& reference_name,
                                       const Run& other, const std::string& other_name);

}  // namespace dtsim
