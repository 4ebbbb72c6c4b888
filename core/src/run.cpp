#include "dtsim/run.hpp"

#include <stdexcept>

namespace dtsim {

std::string to_string(RunKind kind) { return kind == RunKind::predicted ? "predicted" : "measured"; }

std::string to_string(Lane lane) {
    switch (lane) {
    case Lane::compute: return "compute";
    case Lane::comm: return "comm";
    case Lane::wait: return "wait";
    }
    return "?";
}

RunKind run_kind_from_string(const std::string& text) {
    if (text == "predicted") return RunKind::predicted;
    if (text == "measured") return RunKind::measured;
    throw std::invalid_argument("unknown run kind '" + text + "'");
}

Lane lane_from_string(const std::string& text) {
    if (text == "compute") return Lane::compute;
    if (text == "comm") return Lane::comm;
    if (text == "wait") return Lane::wait;
    throw std::invalid_argument("unknown lane '" + text + "'");
}

}  // namespace dtsim
