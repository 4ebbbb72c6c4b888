#pragma once
// Internal to the parameter-server actors: the servers' ports as TCP queues that a push joins (JoinRamp,
// docs/architecture.md, "Flows joining a busy port").
#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>

#include <vector>

#include "dtsim/tcp_join.hpp"

namespace dtsim::sim {

/// A flow entering a port that others fill waits, in its actor, until they have all left or its window
/// carries its share of the port (the ramp's time), and then flows as SimGrid shares the link. While it
/// waits, the few bytes its small windows send are left to after: the port carries the same bytes. A
/// connection (a sender on a port) whose last flow left less than a loaded round trip before the new one set
/// off is one stream still flowing, not a joiner: its bytes follow the last ones in the queue.
class PortGate {
public:
    PortGate(JoinRamp ramp, double port_bytes_per_second, int ports, int connections_per_port);
    /// Whether flows fill `port` now.
    bool busy(int port) const { return flowing_[static_cast<size_t>(port)] > 0; }
    /// Returns when a flow that set off at `since` may start on `port`, counted in until it calls leave. A
    /// sender's flows to several ports ramp up together: each one's ramp counts from `since`, not from when
    /// the flow before it entered.
    void enter(int port, int connection, double since);
    void leave(int port, int connection);

private:
    double& left_s(int port, int connection) {
        return left_s_[static_cast<size_t>(port) * static_cast<size_t>(connections_per_port_) + static_cast<size_t>(connection)];
    }

    JoinRamp ramp_;
    double port_bytes_per_second_;
    int connections_per_port_;
    std::vector<int> flowing_;  // per port
    std::vector<int> joining_;  // per port: waiting in enter
    std::vector<double> left_s_;  // per port and connection: when its last flow left
    simgrid::s4u::MutexPtr mutex_ = simgrid::s4u::Mutex::create();
    simgrid::s4u::ConditionVariablePtr left_ = simgrid::s4u::ConditionVariable::create();
};

}  // namespace dtsim::sim
