#include "communication_thread.hpp"

namespace dtsim::runtime {

CommunicationThread::CommunicationThread() : thread_([this] { loop(); }) {}

CommunicationThread::~CommunicationThread() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
}

void CommunicationThread::submit(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    changed_.notify_all();
}

void CommunicationThread::wait_idle() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return (jobs_.empty() && !busy_) || failure_; });
    if (failure_) std::rethrow_exception(failure_);
}

void CommunicationThread::loop() {
    std::unique_lock lock(mutex_);
    while (true) {
        changed_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // stopping, nothing left
        auto job = std::move(jobs_.front());
        jobs_.pop_front();
        busy_ = true;
        lock.unlock();
        std::exception_ptr failed;
        try {
            job();
        } catch (...) {
            failed = std::current_exception();
        }
        lock.lock();
        busy_ = false;
        if (failed && !failure_) failure_ = failed;
        changed_.notify_all();
    }
}

}  // namespace dtsim::runtime
