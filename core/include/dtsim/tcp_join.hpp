#pragma once
// A TCP flow that joins a port whose queue other flows keep full (docs/architecture.md, "Flows joining a busy
// port").

namespace dtsim {

/// Linux's initial congestion window: 10 segments (RFC 6928; the kernel's TCP_INIT_CWND) of 1448 bytes each
/// (an Ethernet MTU of 1500 less 52 bytes of IP and TCP headers with timestamps).
inline constexpr double kTcpInitialWindowBytes = 10 * 1448.0;

/// A joining flow's window starts from the initial one and doubles once per round trip (slow start), and
/// that round trip is the loaded one, the full queue included. So for several round trips it sends far
/// below its share while the flows already there keep the port.
struct JoinRamp {
    double loaded_round_trip_s = 0;
    double initial_window_bytes = kTcpInitialWindowBytes;
    /// How long its window takes to carry `share_bytes_per_second`: 0 when the initial one already does.
    double seconds_to_share(double share_bytes_per_second) const;
};

}  // namespace dtsim
