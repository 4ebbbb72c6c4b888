#pragma once
// Receive buffers that a thread keeps between collectives, as NCCL keeps its buffers: one allocated per
// call would time the system's page faults with the collective (docs/fidelity.md, "Page faults in the
// measured runs").
#include <array>
#include <cstddef>
#include <vector>

namespace dtsim::runtime {

/// As many as one collective receives into at once: the double tree's two children in each of its trees.
inline constexpr std::size_t kReceiveScratchSlots = 4;

/// Room for `count` elements in buffer `slot` of this thread, grown when short and never shrunk.
template <typename Element>
Element* receive_scratch(std::size_t slot, std::size_t count) {
    thread_local std::array<std::vector<Element>, kReceiveScratchSlots> buffers;
    auto& buffer = buffers.at(slot);
    if (buffer.size() < count) buffer.resize(count);
    return buffer.data();
}

}  // namespace dtsim::runtime
