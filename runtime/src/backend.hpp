#pragma once
// A backend pairs a communicator with a device: `mpi` = MPI + CPU, `nccl` = NCCL + CUDA.
#include <memory>
#include <stdexcept>
#include <string>

#include "communicator.hpp"
#include "device.hpp"
#include "mpi_context.hpp"

namespace dtsim::runtime {

/// The backend cannot run here (no CUDA device, built without CUDA); the message says why in one line.
class BackendUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Backend {
    std::string name;
    std::unique_ptr<Device> device;  // declared first: the communicator may use the device's stream
    std::unique_ptr<Communicator> communicator;
};

/// Collective over all ranks: every rank learns whether the backend is available on all of them.
Backend make_backend(const std::string& name, const MpiContext& context);

}  // namespace dtsim::runtime
