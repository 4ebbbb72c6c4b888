#include "mpi_world.hpp"

#include <mpi.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

namespace dtsim::cli {
namespace {

bool launched_by_mpi() {
    for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (std::getenv(variable)) return true;
    return false;
}

}  // namespace

MpiWorld::MpiWorld() {
    if (!launched_by_mpi()) return;
    MPI_Init(nullptr, nullptr);
    initialised_ = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiWorld::~MpiWorld() {
    if (initialised_) MPI_Finalize();
}

std::vector<std::string> MpiWorld::gather(const std::vector<std::string>& mine) const {
    if (size_ == 1) return mine;
    const std::string packed = nlohmann::json(mine).dump();
    int length = static_cast<int>(packed.size());
    std::vector<int> lengths(static_cast<size_t>(size_));
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(static_cast<size_t>(size_), 0);
    int total = 0;
    for (int r = 0; r < size_; ++r) {
        offsets[static_cast<size_t>(r)] = total;
        total += lengths[static_cast<size_t>(r)];
    }
    std::string all(static_cast<size_t>(rank_ == 0 ? total : 0), '\0');
    MPI_Gatherv(packed.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> gathered;
    if (rank_ != 0) return gathered;
    for (int r = 0; r < size_; ++r) {
        auto part = nlohmann::json::parse(all.substr(static_cast<size_t>(offsets[static_cast<size_t>(r)]),
                                                     static_cast<size_t>(lengths[static_cast<size_t>(r)])));
        for (auto& text : part) gathered.push_back(text.get<std::string>());
    }
    return gathered;
}

}  // namespace dtsim::cli
