#include "dtsim/calibrate/nccl_tests_profile.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "dtsim/calibrate/profile_fitter.hpp"
#include "dtsim/input_error.hpp"

namespace dtsim::calibrate {
namespace {

using nlohmann::ordered_json;

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

ordered_json environment_of(const std::vector<std::string>& paths, const std::vector<std::vector<NcclTestsRun>>& logs) {
    ordered_json files = ordered_json::array(), runs = ordered_json::array();
    std::set<std::string> devices;
    for (size_t f = 0; f < paths.size(); ++f) {
        files.push_back(file_name(paths[f]));
        for (const auto& run : logs[f]) {
            runs.push_back({{"file", file_name(paths[f])},
                            {"line", run.first_line},
                            {"program", std::string(kNcclTestsPrograms.name(run.op))},
                            {"ranks", run.ranks},
                            {"hosts", run.hosts},
                            {"device", run.device}});
            devices.insert(run.device);
        }
    }
    ordered_json environment{{"tool", "nccl-tests"}, {"backend", "nccl"}, {"files", files}, {"runs", runs}};
    // The GPU the profile prices (profile_match.cpp compares it with the scenario's), where the logs agree.
    if (devices.size() == 1 && !devices.begin()->empty()) environment["gpu"] = *devices.begin();
    return environment;
}

}  // namespace

std::vector<Sample> ring_steps_from_allreduces(const std::vector<Sample>& samples) {
    std::set<LinkClass> timed;
    for (const auto& s : samples)
        if (s.op == CalibrationOp{NetworkOp::sendrecv} && s.link_class) timed.insert(*s.link_class);
    std::vector<Sample> steps;
    for (const auto& s : samples) {
        if (s.op != CalibrationOp{NetworkOp::allreduce} || !s.link_class || *s.link_class == LinkClass::mixed ||
            timed.count(*s.link_class) > 0)
            continue;
        Sample step = s;
        step.key = "sendrecv derived from " + s.key;
        step.op = NetworkOp::sendrecv;
        step.bytes = s.bytes / s.ranks;
        step.time_s = s.time_s / (2.0 * (s.ranks - 1));
        steps.push_back(std::move(step));
    }
    return steps;
}

Profile fit_nccl_tests_logs(const std::vector<std::string>& paths, const std::string& name) {
    std::vector<std::vector<NcclTestsRun>> logs;
    std::vector<Sample> samples;
    for (const auto& path : paths) {
        logs.push_back(read_nccl_tests_log(path));
        for (const auto& run : logs.back()) samples.insert(samples.end(), run.samples.begin(), run.samples.end());
    }
    const auto steps = ring_steps_from_allreduces(samples);
    samples.insert(samples.end(), steps.begin(), steps.end());
    auto profile = fit_profile(samples, environment_of(paths, logs).dump(), name);
    std::string files;
    for (const auto& path : paths) files += (files.empty() ? "" : ", ") + file_name(path);
    profile.description = "fitted from nccl-tests logs: " + files;
    if (!steps.empty())
        profile.description += "; ring steps (sendrecv) derived from the all-reduces' times, 2(n - 1) steps of size/n each";
    return profile;
}

}  // namespace dtsim::calibrate
