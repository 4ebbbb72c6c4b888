#pragma once
// A plain-text table for terminal output: columns sized to their widest cell, numbers right-aligned.
#include <ostream>
#include <string>
#include <vector>

namespace dtsim::cli {

class TextTable {
public:
    explicit TextTable(std::vector<std::string> headers, std::vector<bool> right_aligned = {});
    void add_row(std::vector<std::string> cells);
    void print(std::ostream& out, const std::string& indent = "") const;

private:
    std::vector<std::string> headers_;
    std::vector<bool> right_aligned_;
    std::vector<std::vector<std::string>> rows_;
};

/// `value` with `decimals` decimals and its digits grouped by thousands: "288,823.4".
std::string fixed(double value, int decimals);
std::string percent(double fraction);

}  // namespace dtsim::cli
