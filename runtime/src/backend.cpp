#include "backend.hpp"

#include "cpu_device.hpp"
#include "mpi_communicator.hpp"
#ifdef DTSIM_WITH_CUDA
#include "cuda/cuda_device.hpp"
#include "cuda/nccl_communicator.hpp"
#endif

namespace dtsim::runtime {
namespace {

#ifdef DTSIM_WITH_CUDA
Backend make_nccl(const MpiContext& context) {
    const auto reason = cuda_unavailable_reason();
    // Every rank must agree before NCCL is initialised, or the ranks with a GPU would wait forever.
    const bool missing_anywhere = context.max_over_ranks(reason ? 1.0 : 0.0) > 0;
    if (missing_anywhere)
        throw BackendUnavailable("no CUDA device found" + (reason ? " (" + *reason + ")" : std::string(" on some rank")) +
                                 "; --backend nccl needs one GPU per rank (use --backend mpi for CPU workers)");
    auto device = std::make_unique<CudaDevice>(context.local_rank());
    auto communicator = std::make_unique<NcclCommunicator>(context, *device);
    return Backend{"nccl", std::move(device), std::move(communicator)};
}
#else
Backend make_nccl(const MpiContext&) {
    throw BackendUnavailable("no CUDA device found: this dtsim-runtime was built without the CUDA toolkit; "
                             "rebuild where nvcc and NCCL are installed");
}
#endif

}  // namespace

Backend make_backend(const std::string& name, const MpiContext& context) {
    if (name == "nccl") return make_nccl(context);
    return Backend{"mpi", std::make_unique<CpuDevice>(), std::make_unique<MpiCommunicator>(context)};
}

}  // namespace dtsim::runtime
