#include "port_gate.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <mutex>

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

PortGate::PortGate(JoinRamp ramp, double port_bytes_per_second, int ports)
    : ramp_(ramp), port_bytes_per_second_(port_bytes_per_second), flowing_(static_cast<size_t>(ports), 0),
      joining_(static_cast<size_t>(ports), 0) {}

void PortGate::enter(int port, double since) {
    auto& flowing = flowing_[static_cast<size_t>(port)];
    auto& joining = joining_[static_cast<size_t>(port)];
    if (flowing > 0) {
        ++joining;  // flows that join together each aim at their share among all of them
        const double share = port_bytes_per_second_ / (flowing + joining);
        const double deadline = since + ramp_.seconds_to_share(share);
        std::unique_lock lock(*mutex_);
        while (flowing > 0 && sg4::Engine::get_clock() < deadline) left_->wait_until(lock, deadline);
        --joining;
    }
    ++flowing;
}

void PortGate::leave(int port) {
    --flowing_[static_cast<size_t>(port)];
    left_->notify_all();
}

}  // namespace dtsim::sim
