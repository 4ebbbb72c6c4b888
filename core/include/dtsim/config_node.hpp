#pragma once
// Typed, located access to a YAML document. Every accessor that fails throws an InputError naming
// the file and line (or the --set option that supplied the value), the dotted key, and what was expected.
#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dtsim/name_table.hpp"
#include "dtsim/physical_limits.hpp"

namespace dtsim {

/// Where a document came from, and which dotted keys were replaced from the command line.
struct DocumentSource {
    std::string file;
    std::map<std::string, std::string> overrides;  // dotted key -> text given to --set
};

class ConfigNode {
public:
    ConfigNode(YAML::Node node, std::string path, std::shared_ptr<const DocumentSource> source);

    /// Loads a document; syntax errors name the file and line.
    static ConfigNode parse(const std::string& text, std::shared_ptr<const DocumentSource> source);
    static ConfigNode parse_file(const std::string& path);

    const YAML::Node& yaml() const { return node_; }
    const std::string& path() const { return path_; }
    bool is_map() const { return node_.IsMap(); }
    bool has(std::string_view key) const;

    ConfigNode child(std::string_view key) const;  // required
    std::vector<ConfigNode> sequence() const;       // this node must be a sequence

    // The typed accessors read the value at `key` in this mapping, or this node itself when `key` is empty
    // (an item of a list).
    std::string text(std::string_view key) const;
    long long integer(std::string_view key, long long min_value, long long max_value) const;
    double number(std::string_view key, double min_value, double max_value) const;
    bool boolean(std::string_view key) const;
    // Quantities with units ("25MB", "2us", "400Gbps", "989TFLOPS"), each within its physical range
    // (physical_limits.hpp); `seconds` reads a duration unless told it is a latency.
    double bytes(std::string_view key) const;
    double seconds(std::string_view key, Quantity kind = Quantity::duration) const;
    double bytes_per_second(std::string_view key) const;
    double flops_per_second(std::string_view key) const;
    /// A plain number (JSON) of the quantity, in its base unit: bytes, seconds, bytes or FLOP per second.
    double quantity(std::string_view key, Quantity kind) const;
    std::string choice(std::string_view key, const std::vector<std::string_view>& options) const;
    /// The value at `key` as one of the table's names.
    template <typename Enum, std::size_t N>
    Enum choice(std::string_view key, const NameTable<Enum, N>& table) const {
        return *table.parse(choice(key, table.names()));
    }

    /// This node must be a mapping whose keys are all in `allowed`; an unknown key is an error with a
    /// did-you-mean suggestion.
    void require_map_with_keys(std::initializer_list<std::string_view> allowed) const;
    void require_map_with_keys(std::span<const std::string_view> allowed) const;

    /// "FILE:LINE: key 'a.b.c'" (or the --set option that gave it): the prefix of every message about `key`.
    std::string where(std::string_view key) const;
    /// Throws an InputError located at `key` inside this node (or at this node when key is empty).
    [[noreturn]] void fail(std::string_view key, const std::string& expected) const;

private:
    std::string key_path(std::string_view key) const;
    std::string location(std::string_view key) const;
    YAML::Node required(std::string_view key, const char* expected) const;
    std::string scalar(std::string_view key, const char* expected) const;
    double within_range(std::string_view key, Quantity kind, double value, const std::string& written) const;

    YAML::Node node_;
    std::string path_;
    std::shared_ptr<const DocumentSource> source_;
};

/// Applies `--set a.b.c=value` to a document: the value is read as YAML (so lists and maps work), the
/// intermediate mappings are created when absent. Throws InputError when the option is malformed.
void apply_override(YAML::Node& root, const std::string& assignment, DocumentSource& source);

/// The closest candidate within a small edit distance, for "did you mean" hints; empty when none is close.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace dtsim
