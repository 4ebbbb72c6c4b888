#pragma once
// Incast: where several senders fill one receiving port at once, TCP loses part of the port's rate to
// drops and retransmission timeouts in the port's shallow queue, which a flow model that shares the port
// perfectly does not see. A calibration measures it with the all-to-all over one rank per node (each
// port then takes g - 1 senders at once, Open MPI's linear algorithm and NCCL's grouped sends alike).
#include <utility>
#include <vector>

namespace dtsim {

struct Profile;

/// A receiving port's share of its rate by the number of flows arriving at once: 1 for a single flow,
/// the calibrated efficiencies at the sender counts measured, linear between them, and the largest
/// count's beyond it. Empty (no calibration): 1 everywhere, a perfectly shared port.
struct IncastCurve {
    std::vector<std::pair<int, double>> points;  // (senders >= 2, efficiency in (0, 1]), by senders
    bool empty() const { return points.empty(); }
    double efficiency(int senders) const;
};

/// The profile's inter-node incast: for each latency-mode all-to-all over g >= 3 ranks on g nodes, its
/// large-message rate against the (g - 1) / g of a rank's bytes that cross a port at the profile's link
/// bandwidth. Empty without such fits or an inter-node link.
IncastCurve inter_node_incast(const Profile& profile);

}  // namespace dtsim
