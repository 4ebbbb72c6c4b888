#include "port_gate.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <limits>
#include <mutex>

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

PortGate::PortGate(JoinRamp ramp, double port_bytes_per_second, int ports, int connections_per_port)
    : ramp_(ramp), port_bytes_per_second_(port_bytes_per_second), connections_per_port_(connections_per_port),
      flowing_(static_cast<size_t>(ports), 0), joining_(static_cast<size_t>(ports), 0),
      left_s_(static_cast<size_t>(ports) * static_cast<size_t>(connections_per_port), -std::numeric_limits<double>::infinity()) {}

void PortGate::enter(int port, int connection, double since) {
    auto& flowing = flowing_[static_cast<size_t>(port)];
    auto& joining = joining_[static_cast<size_t>(port)];
    if (flowing > 0 && since - left_s(port, connection) > ramp_.loaded_round_trip_s) {
        ++joining;  // flows that join together each aim at their share among all of them
        const double share = port_bytes_per_second_ / (flowing + joining);
        const double deadline = since + ramp_.seconds_to_share(share);
        std::unique_lock lock(*mutex_);
        while (flowing > 0 && sg4::Engine::get_clock() < deadline) left_->wait_until(lock, deadline);
        --joining;
    }
    ++flowing;
}

void PortGate::leave(int port, int connection) {
    --flowing_[static_cast<size_t>(port)];
    left_s(port, connection) = sg4::Engine::get_clock();
    left_->notify_all();
}

}  // namespace dtsim::sim
