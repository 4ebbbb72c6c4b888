#pragma once
// Chrome Trace Event JSON (opens in Perfetto and chrome://tracing): one process per node, and per rank
// separate compute, communication and wait threads so that spans on one track always nest.
#include <ostream>
#include <string>

#include "dtsim/run.hpp"

namespace dtsim {

void write_chrome_trace(const Run& run, std::ostream& out);
/// Writes to a file, whole or not at all (write_file_atomically); throws std::runtime_error naming the file
/// when it cannot be written.
void write_chrome_trace_file(const Run& run, const std::string& path);

}  // namespace dtsim
