#pragma once
// A worker's communication thread, as PyTorch DDP's: backward hands it each gradient bucket as soon as
// the bucket is ready, and it runs their communication one after another, in that order, while compute
// goes on. It is the only thread of the worker that calls MPI while the iterations run.
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace dtsim::runtime {

class CommunicationThread {
public:
    CommunicationThread();
    ~CommunicationThread();
    CommunicationThread(const CommunicationThread&) = delete;
    CommunicationThread& operator=(const CommunicationThread&) = delete;

    void submit(std::function<void()> job);
    /// Blocks until every submitted job has run; rethrows the first failure of one.
    void wait_idle();

private:
    void loop();

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::function<void()>> jobs_;
    bool busy_ = false;
    bool stopping_ = false;
    std::exception_ptr failure_;
    std::thread thread_;  // last: started once everything above exists
};

}  // namespace dtsim::runtime
