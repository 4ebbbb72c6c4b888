#include "open_mpi_tuning.hpp"

#include <cstdlib>

namespace dtsim::runtime {
namespace {

std::map<std::string, std::string> set_mca_defaults(const std::map<std::string, std::string>& wanted) {
    std::map<std::string, std::string> effective;
    for (const auto& [parameter, value] : wanted) {
        const std::string variable = "OMPI_MCA_" + parameter;
        if (const char* existing = std::getenv(variable.c_str()))
            effective[parameter] = existing;
        else {
            setenv(variable.c_str(), value.c_str(), 0);
            effective[parameter] = value;
        }
    }
    return effective;
}

}  // namespace

std::map<std::string, std::string> pin_mpi_collective_algorithms() {
    // Numbers from `ompi_info --param coll tuned --level 9` (Open MPI 4.1).
    return set_mca_defaults({
        {"coll_tuned_use_dynamic_rules", "1"},
        {"coll_tuned_allreduce_algorithm", "4"},       // ring
        {"coll_tuned_allgather_algorithm", "4"},       // ring
        {"coll_tuned_reduce_scatter_algorithm", "3"},  // ring
        {"coll_tuned_bcast_algorithm", "6"},           // binomial tree, unsegmented
        {"coll_tuned_alltoall_algorithm", "1"},        // basic linear: every send and receive at once, as NCCL's
                                                       // grouped sends and the direct all-reduce's phases
    });
}

std::map<std::string, std::string> set_mpi_tcp_eager_sends() {
    // 1 GiB: above any message the MPI backend sends (its calibration stops at 64 MiB). A message that is
    // not expected yet is buffered by the receiver until its receive is posted.
    constexpr const char* kLimit = "1073741824";
    return set_mca_defaults({{"btl_tcp_eager_limit", kLimit}, {"btl_tcp_rndv_eager_limit", kLimit}});
}

}  // namespace dtsim::runtime
