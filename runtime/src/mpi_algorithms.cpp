#include "mpi_algorithms.hpp"

#include <cstdlib>

namespace dtsim::runtime {

std::map<std::string, std::string> pin_mpi_collective_algorithms() {
    // Numbers from `ompi_info --param coll tuned --level 9` (Open MPI 4.1).
    const std::map<std::string, std::string> wanted{
        {"coll_tuned_use_dynamic_rules", "1"},
        {"coll_tuned_allreduce_algorithm", "4"},       // ring
        {"coll_tuned_allgather_algorithm", "4"},       // ring
        {"coll_tuned_reduce_scatter_algorithm", "3"},  // ring
        {"coll_tuned_bcast_algorithm", "6"},           // binomial tree, unsegmented
        {"coll_tuned_alltoall_algorithm", "2"},        // pairwise exchange
    };
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

}  // namespace dtsim::runtime
