#include "profile_match.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

namespace dtsim {
namespace {

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string environment_text(const nlohmann::json& environment, const char* key) {
    const auto it = environment.find(key);
    return it != environment.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A datasheet profile names its GPU preset; a measured one records the device it ran on ("cpu", or the
// CUDA name such as "NVIDIA H100 80GB HBM3"). Empty when it says neither.
std::string profile_gpu(const Profile& profile, const nlohmann::json& environment) {
    const auto preset = environment_text(environment, "gpu");
    if (!preset.empty()) return preset;
    return profile.compute ? profile.compute->device : std::string();
}

// The preset h100-sxm matches "h100-sxm" and any device name containing its family, "h100".
bool same_gpu(const std::string& profile_device, const std::string& preset) {
    if (profile_device == preset) return true;
    const auto family = lowercase(preset.substr(0, preset.find('-')));
    return lowercase(profile_device).find(family) != std::string::npos;
}

[[noreturn]] void refuse(const ConfigNode& doc, const Profile& profile, const std::string& what, const std::string& theirs,
                         const std::string& ours, const std::string& our_key) {
    doc.fail("profile", "profile '" + profile.name + "' was made for " + what + " " + theirs + ", but the scenario's is " +
                            ours + " (" + doc.child("cluster").where(our_key) +
                            "); use a profile of this hardware, or set profile_mismatch: allow to price it with this one anyway");
}

}  // namespace

void check_profile_matches(const ConfigNode& doc, const Scenario& scenario) {
    const bool allowed = doc.has("profile_mismatch") && doc.choice("profile_mismatch", {"refuse", "allow"}) == "allow";
    if (!scenario.profile || allowed) return;
    const auto& profile = *scenario.profile->fits;
    const auto environment = nlohmann::json::parse(profile.environment_json, nullptr, false);
    if (!environment.is_object()) return;
    const auto& cluster = scenario.cluster;
    // The key that set a value, else the node preset that gave it, else the GPU preset (its NVLink).
    const auto cluster_node = doc.child("cluster");
    const auto key = [&](const char* written) {
        return cluster_node.has(written) ? written : cluster_node.has("node") ? "node" : "gpu";
    };
    const auto gpu = profile_gpu(profile, environment);
    if (!gpu.empty() && !same_gpu(gpu, cluster.gpu.name)) refuse(doc, profile, "GPU", gpu, cluster.gpu.name, key("gpu"));
    // The links a datasheet profile was derived from; a measured one records its hosts instead.
    const auto intra = environment_text(environment, "intra_node");
    if (!intra.empty() && !cluster.intra_node.preset.empty() && intra != cluster.intra_node.preset)
        refuse(doc, profile, "the intra-node link", intra, cluster.intra_node.preset, key("intra_node"));
    const auto nic = environment_text(environment, "nic");
    if (!nic.empty() && !cluster.nic.preset.empty() && nic != cluster.nic.preset)
        refuse(doc, profile, "the NIC", nic, cluster.nic.preset, key("nic"));
}

}  // namespace dtsim
