#include "mpi_context.hpp"

#include <climits>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>

#include "dtsim/input_error.hpp"
#include "mpi_waiting.hpp"

namespace dtsim::runtime {
namespace {

void check_mpi_code(int code, const char* what) {
    if (code != MPI_SUCCESS) throw std::runtime_error(std::string(what) + " failed (MPI error " + std::to_string(code) + ")");
}

std::vector<std::string> gather_host_names(MPI_Comm comm, int size) {
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    check_mpi_code(MPI_Get_processor_name(name, &length), "MPI_Get_processor_name");
    std::vector<char> all(static_cast<size_t>(size) * MPI_MAX_PROCESSOR_NAME);
    check_mpi_code(
        MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm),
        "MPI_Allgather");
    std::vector<std::string> out;
    for (int r = 0; r < size; ++r) out.emplace_back(all.data() + static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME);
    return out;
}

}  // namespace

// DTSIM_RANKS_PER_NODE=K: every K consecutive ranks count as one node, whatever memory they share, so that the
// ranks of one machine take the samples between nodes (tests/mpi; the messages still go through shared memory).
std::optional<int> emulated_ranks_per_node() {
    const char* text = std::getenv("DTSIM_RANKS_PER_NODE");
    if (!text) return std::nullopt;
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 1 || value > INT_MAX)
        throw InputError("DTSIM_RANKS_PER_NODE: expected a whole number of ranks of 1 or more, got '" +
                         std::string(text) + "'");
    return static_cast<int>(value);
}

MpiContext::MpiContext(int& argc, char**& argv, int thread_level) {
    int provided = 0;
    check_mpi_code(MPI_Init_thread(&argc, &argv, thread_level, &provided), "MPI_Init_thread");
    if (provided < thread_level)
        throw std::runtime_error("the MPI library provides thread level " + std::to_string(provided) + ", " +
                                 std::to_string(thread_level) + " is needed");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check_mpi_code(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check_mpi_code(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
    host_names_ = gather_host_names(MPI_COMM_WORLD, size_);

    // A node is a shared-memory domain as the MPI library sees it; its lowest world rank names it.
    MPI_Comm node_comm = MPI_COMM_NULL;
    check_mpi_code(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_comm),
          "MPI_Comm_split_type");
    check_mpi_code(MPI_Comm_rank(node_comm, &local_rank_), "MPI_Comm_rank");
    int leader = rank_;
    check_mpi_code(MPI_Bcast(&leader, 1, MPI_INT, 0, node_comm), "MPI_Bcast");
    MPI_Comm_free(&node_comm);
    std::vector<int> leaders(static_cast<size_t>(size_));
    check_mpi_code(MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
    std::map<int, int> dense;
    for (int l : leaders) dense.emplace(l, static_cast<int>(dense.size()));
    for (int l : leaders) node_of_rank_.push_back(dense.at(l));
    if (const auto per_node = emulated_ranks_per_node()) {
        for (int r = 0; r < size_; ++r) node_of_rank_[static_cast<size_t>(r)] = r / *per_node;
        local_rank_ = rank_ % *per_node;
    }
}

MpiContext::~MpiContext() { MPI_Finalize(); }

int MpiContext::nodes() const {
    int out = 0;
    for (int n : node_of_rank_) out = std::max(out, n + 1);
    return out;
}

// The collectives below are non-blocking ones waited for as mpi_waiting.hpp says, so that ranks idle while
// others are timed leave their cores when a poll interval is set.
void MpiContext::barrier() const {
    MPI_Request request = MPI_REQUEST_NULL;
    check_mpi_code(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
    wait_one(request);
}

void MpiContext::allreduce(const double* in, double* out, int count, MPI_Op op) const {
    MPI_Request request = MPI_REQUEST_NULL;
    check_mpi_code(MPI_Iallreduce(in, out, count, MPI_DOUBLE, op, MPI_COMM_WORLD, &request), "MPI_Iallreduce");
    wait_one(request);
}

void MpiContext::bcast(void* buffer, int count, MPI_Datatype type, int root) const {
    MPI_Request request = MPI_REQUEST_NULL;
    check_mpi_code(MPI_Ibcast(buffer, count, type, root, MPI_COMM_WORLD, &request), "MPI_Ibcast");
    wait_one(request);
}

double MpiContext::max_over_ranks(double value) const {
    double out = 0;
    allreduce(&value, &out, 1, MPI_MAX);
    return out;
}

double MpiContext::mean_over_ranks(double value) const {
    double out = 0;
    allreduce(&value, &out, 1, MPI_SUM);
    return out / size_;
}

std::vector<double> MpiContext::max_over_ranks(const std::vector<double>& values) const {
    std::vector<double> out(values.size());
    allreduce(values.data(), out.data(), static_cast<int>(values.size()), MPI_MAX);
    return out;
}

std::vector<double> MpiContext::mean_over_ranks(const std::vector<double>& values) const {
    std::vector<double> out(values.size());
    allreduce(values.data(), out.data(), static_cast<int>(values.size()), MPI_SUM);
    for (double& value : out) value /= size_;
    return out;
}

std::vector<double> MpiContext::broadcast(std::vector<double> values, int root) const {
    int count = static_cast<int>(values.size());
    bcast(&count, 1, MPI_INT, root);
    values.resize(static_cast<size_t>(count));
    bcast(values.data(), count, MPI_DOUBLE, root);
    return values;
}

std::string MpiContext::broadcast(std::string text, int root) const {
    int length = static_cast<int>(text.size());
    bcast(&length, 1, MPI_INT, root);
    text.resize(static_cast<size_t>(length));
    bcast(text.data(), length, MPI_CHAR, root);
    return text;
}

std::string MpiContext::library_version() const {
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    MPI_Get_library_version(text, &length);
    std::string out(text, static_cast<size_t>(length));
    const auto end = out.find_first_of(",\n");  // "Open MPI v4.1.4, package: ..." -> "Open MPI v4.1.4"
    return end == std::string::npos ? out : out.substr(0, end);
}

}  // namespace dtsim::runtime
