#include "machine_sharing.hpp"

#include <sched.h>

#include <array>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

namespace dtsim::runtime {
namespace {

constexpr size_t kIdChars = MPI_MAX_PROCESSOR_NAME;  // a boot id (a UUID) or, failing that, a host name
constexpr size_t kMaskBytes = CPU_SETSIZE / 8;

// The kernel's boot id, else (no /proc) the host name: then ranks on one machine count as apart.
std::string machine_id(const MpiContext& context) {
    std::ifstream in("/proc/sys/kernel/random/boot_id");
    std::string id;
    if (in >> id && !id.empty()) return id;
    return context.host_names()[static_cast<size_t>(context.rank())];
}

std::array<unsigned char, kMaskBytes> affinity_mask() {
    std::array<unsigned char, kMaskBytes> mask{};
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return mask;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &set)) mask[static_cast<size_t>(cpu / 8)] |= static_cast<unsigned char>(1u << (cpu % 8));
    return mask;
}

}  // namespace

std::vector<Machine> gather_machines(const MpiContext& context) {
    const auto size = static_cast<size_t>(context.size());
    std::vector<char> id(kIdChars, '\0');
    machine_id(context).copy(id.data(), kIdChars - 1);
    std::vector<char> ids(size * kIdChars);
    std::vector<unsigned char> masks(size * kMaskBytes);
    const auto mask = affinity_mask();
    if (MPI_Allgather(id.data(), kIdChars, MPI_CHAR, ids.data(), kIdChars, MPI_CHAR, context.world()) != MPI_SUCCESS ||
        MPI_Allgather(mask.data(), kMaskBytes, MPI_UNSIGNED_CHAR, masks.data(), kMaskBytes, MPI_UNSIGNED_CHAR,
                      context.world()) != MPI_SUCCESS)
        throw std::runtime_error("gathering the ranks' machines failed (MPI_Allgather)");

    std::map<std::string, size_t> index_of;  // machine id -> position in `out`
    std::vector<std::array<unsigned char, kMaskBytes>> cores;
    std::vector<Machine> out;
    for (size_t r = 0; r < size; ++r) {
        const std::string key(ids.data() + r * kIdChars);
        auto [found, added] = index_of.emplace(key, out.size());
        if (added) {
            out.emplace_back();
            cores.emplace_back();
        }
        out[found->second].ranks.push_back(static_cast<int>(r));
        for (size_t b = 0; b < kMaskBytes; ++b) cores[found->second][b] |= masks[r * kMaskBytes + b];
    }
    for (size_t m = 0; m < out.size(); ++m)
        for (unsigned char byte : cores[m]) out[m].cores += __builtin_popcount(byte);
    return out;
}

bool oversubscribed(const std::vector<Machine>& machines) {
    for (const auto& machine : machines)
        if (machine.cores > 0 && static_cast<int>(machine.ranks.size()) > machine.cores) return true;
    return false;
}

}  // namespace dtsim::runtime
