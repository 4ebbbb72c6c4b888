#include "dtsim/config_node.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

#include <yaml-cpp/eventhandler.h>

#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/physical_limits.hpp"
#include "dtsim/units.hpp"
#include "dtsim/utf8_text.hpp"

namespace dtsim {
namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string quoted_value(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull()) return "nothing";
    if (node.IsScalar()) return "'" + node.Scalar() + "'";
    if (node.IsSequence()) return "a list";
    return "a mapping";
}

// The whole text as a finite number; nothing for anything else (a unit after it, "nan", a denormal).
std::optional<double> plain_number(const std::string& text) {
    double parsed = 0;
    size_t used = 0;
    try {
        parsed = std::stod(text, &used);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (used == 0 || used != text.size() || !std::isfinite(parsed)) return std::nullopt;
    return parsed;
}

// Counts what a document holds, and where its first node is.
class DocumentContent : public YAML::EventHandler {
public:
    int nodes = 0;
    int first_line = 0;

    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { seen(mark); }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { seen(mark); }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override { seen(mark); }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        seen(mark);
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override { seen(mark); }
    void OnMapEnd() override {}

private:
    void seen(const YAML::Mark& mark) {
        if (nodes++ == 0) first_line = mark.line;
    }
};

// The 0-based line where a second document with content begins, if there is one. Only two documents are
// read: on some malformed text (a line starting with ", ") yaml-cpp's parser yields empty documents
// without reading on, so YAML::LoadAll never ends.
std::optional<int> second_document_line(const std::string& text) {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    DocumentContent first, second;
    if (!parser.HandleNextDocument(first) || !parser.HandleNextDocument(second) || second.nodes == 0) return std::nullopt;
    return second.first_line;
}

// Checks of a document as a whole, before any key is read: what yaml-cpp lets through unsaid.
class DocumentText {
public:
    DocumentText(const std::string& text, const DocumentSource& source) : text_(text), source_(source) {}

    // "FILE:LINE" of a 0-based line (yaml-cpp's marks), or of the line holding a byte.
    std::string at_line(int line) const { return source_.file + ":" + std::to_string(line >= 0 ? line + 1 : 1); }
    std::string at_offset(std::size_t offset) const {
        return at_line(static_cast<int>(std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(offset), '\n')));
    }

    // yaml-cpp ends a plain value at a NUL byte and reads an escape after it in a quoted one.
    void require_no_nul() const {
        const auto nul = text_.find('\0');
        if (nul == std::string::npos) return;
        const auto line_start = text_.rfind('\n', nul);
        const auto column = nul - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
        throw InputError(at_offset(nul) + ": a NUL byte at column " + std::to_string(column) + "; expected a text file");
    }

    // Every key and value is UTF-8 and every quoted one is closed; `path` is the dotted key of `node`. A node
    // reached again through an alias is checked once.
    void check_scalars(const YAML::Node& node, const std::string& path = "") {
        if (!node.IsDefined() || node.IsNull()) return;
        if (!visited_.insert({node.Mark().pos, static_cast<int>(node.Type())}).second) return;
        if (node.IsScalar()) {
            check_scalar(node, path);
        } else if (node.IsSequence()) {
            for (std::size_t i = 0; i < node.size(); ++i) check_scalars(node[i], path + "[" + std::to_string(i) + "]");
        } else if (node.IsMap()) {
            for (const auto& entry : node) {
                if (!entry.first.IsScalar()) continue;  // a complex key: require_map_with_keys names it
                const std::string key = (path.empty() ? "" : path + ".") + entry.first.Scalar();
                check_scalar(entry.first, key);
                check_scalars(entry.second, key);
            }
        }
    }

    // Bytes outside every value (in a comment, say) must be UTF-8 too.
    void require_utf8() const {
        if (const auto offset = invalid_utf8_offset(text_))
            dtsim::require_utf8(line_of(*offset), at_offset(*offset) + ": this line");
    }

private:
    void check_scalar(const YAML::Node& scalar, const std::string& path) const {
        const std::string where = at_line(scalar.Mark().line) + ": key '" + printable_text(path.empty() ? "<document>" : path) + "'";
        if (!closes_quote(scalar.Mark().pos))
            throw InputError(where + ": the quote that opens its value is never closed; expected a closing " +
                             text_[static_cast<std::size_t>(scalar.Mark().pos)]);
        dtsim::require_utf8(scalar.Scalar(), where);
    }

    // A quoted scalar at `pos` has its closing quote in the text; yaml-cpp reads an unclosed one to the end of
    // the file, so the keys after it go missing. True for a scalar that is not quoted.
    bool closes_quote(int pos) const {
        if (pos < 0 || static_cast<std::size_t>(pos) >= text_.size()) return true;
        const char quote = text_[static_cast<std::size_t>(pos)];
        if (quote != '"' && quote != '\'') return true;
        for (std::size_t i = static_cast<std::size_t>(pos) + 1; i < text_.size(); ++i) {
            if (quote == '"' && text_[i] == '\\') {
                ++i;  // an escaped character, a quote included
            } else if (text_[i] == quote) {
                if (quote == '\'' && i + 1 < text_.size() && text_[i + 1] == '\'') {
                    ++i;  // '' is a quote inside single quotes
                    continue;
                }
                return true;
            }
        }
        return false;
    }

    std::string line_of(std::size_t offset) const {
        const auto start = text_.rfind('\n', offset);
        const auto begin = start == std::string::npos ? 0 : start + 1;
        const auto end = text_.find('\n', offset);
        return text_.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    }

    const std::string& text_;
    const DocumentSource& source_;
    std::set<std::pair<int, int>> visited_;  // (mark position, node type) of each node checked
};

}  // namespace

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
    std::string best;
    size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
    for (const auto& candidate : candidates) {
        size_t d = edit_distance(word, candidate);
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    return best;
}

ConfigNode::ConfigNode(YAML::Node node, std::string path, std::shared_ptr<const DocumentSource> source)
    : node_(std::move(node)), path_(std::move(path)), source_(std::move(source)) {}

ConfigNode ConfigNode::parse(const std::string& text, std::shared_ptr<const DocumentSource> source) {
    DocumentText document{text, *source};
    document.require_no_nul();
    YAML::Node root;
    std::optional<int> second;
    try {
        root = YAML::Load(text);
        second = second_document_line(text);
    } catch (const YAML::Exception& e) {
        // yaml-cpp stops a parse nested past its depth limit with this message (its DeepRecursion is not
        // exported), and says it of nothing else when reading from memory.
        if (e.msg == YAML::ErrorMsg::BAD_FILE)
            throw InputError(document.at_line(e.mark.line) +
                             ": lists or mappings nested too deep for the YAML reader; expected a document that nests a few levels");
        throw InputError(document.at_line(e.mark.line) + ": YAML syntax error: " + e.msg);
    }
    // yaml-cpp reads the first document of a stream: a second would be ignored without a word.
    if (second)
        throw InputError(document.at_line(*second) +
                         ": a second YAML document starts here (after '---', or where the first could not go on); "
                         "expected one document per file");
    document.check_scalars(root);
    document.require_utf8();
    return ConfigNode(root, "", std::move(source));
}

ConfigNode ConfigNode::parse_file(const std::string& path) {
    return parse(read_text_file(path), std::make_shared<DocumentSource>(DocumentSource{path, {}}));
}

std::string ConfigNode::key_path(std::string_view key) const {
    if (key.empty()) return path_;
    if (path_.empty()) return std::string(key);
    return path_ + "." + std::string(key);
}

std::string ConfigNode::location(std::string_view key) const {
    const std::string full = key_path(key);
    // A value given on the command line is reported there, not at the file line it replaced.
    for (const auto& [overridden, value] : source_->overrides) {
        if (full == overridden || full.rfind(overridden + ".", 0) == 0)
            return "command line (--set " + overridden + "=" + value + ")";
    }
    int line = -1;
    if (!key.empty() && node_.IsMap() && node_[std::string(key)].IsDefined())
        line = node_[std::string(key)].Mark().line;
    else
        line = node_.Mark().line;
    return source_->file + ":" + std::to_string(line >= 0 ? line + 1 : 1);
}

std::string ConfigNode::where(std::string_view key) const {
    const std::string full = key_path(key);
    return location(key) + ": key '" + (full.empty() ? "<document>" : full) + "'";
}

void ConfigNode::fail(std::string_view key, const std::string& expected) const {
    throw InputError(where(key) + ": " + expected);
}

bool ConfigNode::has(std::string_view key) const {
    if (!node_.IsMap()) return false;
    auto value = node_[std::string(key)];
    return value.IsDefined() && !value.IsNull();
}

YAML::Node ConfigNode::required(std::string_view key, const char* expected) const {
    if (key.empty()) {
        if (!node_.IsDefined() || node_.IsNull()) fail(key, std::string("is missing; expected ") + expected);
        return node_;
    }
    if (!node_.IsMap()) fail("", "expected a mapping of keys, got " + quoted_value(node_));
    auto value = node_[std::string(key)];
    if (!value.IsDefined() || value.IsNull()) fail(key, std::string("is missing; expected ") + expected);
    return value;
}

ConfigNode ConfigNode::child(std::string_view key) const {
    return ConfigNode(required(key, "a section"), key_path(key), source_);
}

std::vector<ConfigNode> ConfigNode::sequence() const {
    if (!node_.IsSequence()) fail("", "expected a list, got " + quoted_value(node_));
    std::vector<ConfigNode> items;
    for (size_t i = 0; i < node_.size(); ++i)
        items.emplace_back(node_[i], path_ + "[" + std::to_string(i) + "]", source_);
    return items;
}

std::string ConfigNode::scalar(std::string_view key, const char* expected) const {
    auto value = required(key, expected);
    if (!value.IsScalar()) fail(key, std::string("expected ") + expected + ", got " + quoted_value(value));
    return value.Scalar();
}

std::string ConfigNode::text(std::string_view key) const {
    auto value = scalar(key, "a text value");
    if (value.empty()) fail(key, "expected a non-empty text value");
    return value;
}

long long ConfigNode::integer(std::string_view key, long long min_value, long long max_value) const {
    const std::string expected = "an integer from " + std::to_string(min_value) + " to " + std::to_string(max_value);
    auto value = scalar(key, expected.c_str());
    long long parsed = 0;
    size_t used = 0;
    try {
        parsed = std::stoll(value, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != value.size()) fail(key, "expected " + expected + ", got '" + value + "'");
    if (parsed < min_value || parsed > max_value) fail(key, "expected " + expected + ", got " + value);
    return parsed;
}

double ConfigNode::number(std::string_view key, double min_value, double max_value) const {
    std::ostringstream expected;
    expected << "a number from " << min_value << " to " << max_value;
    auto value = scalar(key, expected.str().c_str());
    const auto parsed = plain_number(value);
    if (!parsed) fail(key, "expected " + expected.str() + ", got '" + value + "'");
    if (*parsed < min_value || *parsed > max_value) fail(key, "expected " + expected.str() + ", got " + value);
    return *parsed;
}

bool ConfigNode::boolean(std::string_view key) const {
    auto value = scalar(key, "true or false");
    if (value == "true" || value == "yes" || value == "on") return true;
    if (value == "false" || value == "no" || value == "off") return false;
    fail(key, "expected true or false, got '" + value + "'");
}

double ConfigNode::bytes(std::string_view key) const {
    auto value = scalar(key, "a size such as 25MB or 1GiB");
    auto parsed = parse_bytes(value);
    if (!parsed) fail(key, "expected a size such as 25MB, 100MiB or 1GB, got '" + value + "'");
    return within_range(key, Quantity::size, *parsed, value);
}

double ConfigNode::seconds(std::string_view key, Quantity kind) const {
    auto value = scalar(key, "a duration such as 30ms or 2us");
    auto parsed = parse_seconds(value);
    if (!parsed) fail(key, "expected a duration such as 30ms, 2us or 1.5s, got '" + value + "'");
    return within_range(key, kind, *parsed, value);
}

double ConfigNode::bytes_per_second(std::string_view key) const {
    auto value = scalar(key, "a bandwidth such as 400Gbps or 450GB/s");
    auto parsed = parse_bytes_per_second(value);
    if (!parsed || *parsed <= 0)
        fail(key, "expected a positive bandwidth such as 400Gbps, 100Gb/s or 450GB/s, got '" + value + "'");
    return within_range(key, Quantity::bandwidth, *parsed, value);
}

double ConfigNode::flops_per_second(std::string_view key) const {
    auto value = scalar(key, "a compute rate such as 989TFLOPS");
    auto parsed = parse_flops_per_second(value);
    if (!parsed || *parsed <= 0) fail(key, "expected a positive compute rate such as 989TFLOPS, got '" + value + "'");
    return within_range(key, Quantity::flop_rate, *parsed, value);
}

double ConfigNode::quantity(std::string_view key, Quantity kind) const {
    const auto value = scalar(key, "a number");
    // Not a number: out of every range, so the message says what is expected.
    return within_range(key, kind, plain_number(value).value_or(std::nan("")), value);
}

double ConfigNode::within_range(std::string_view key, Quantity kind, double value, const std::string& written) const {
    if (const auto expected = out_of_range(kind, value)) fail(key, *expected + ", got '" + written + "'");
    return value;
}

std::string ConfigNode::choice(std::string_view key, const std::vector<std::string_view>& options) const {
    std::string list;
    for (auto option : options) list += (list.empty() ? "" : " | ") + std::string(option);
    auto value = scalar(key, ("one of " + list).c_str());
    for (auto option : options)
        if (value == option) return value;
    std::vector<std::string> candidates(options.begin(), options.end());
    auto hint = closest_match(value, candidates);
    fail(key, "expected one of " + list + ", got '" + value + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
}

void ConfigNode::require_map_with_keys(std::initializer_list<std::string_view> allowed) const {
    require_map_with_keys(std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

void ConfigNode::require_map_with_keys(std::span<const std::string_view> allowed) const {
    if (!node_.IsMap()) fail("", "expected a mapping of keys, got " + quoted_value(node_));
    std::vector<std::string> candidates(allowed.begin(), allowed.end());
    std::vector<std::string> seen;
    for (const auto& entry : node_) {
        if (!entry.first.IsScalar() && !entry.first.IsNull()) {
            // A complex key (`? [a, b]` or `? {a: b}`): report it at its own line unless --set supplied it.
            std::string where = location("");
            if (where.rfind("command line", 0) != 0 && entry.first.Mark().line >= 0)
                where = source_->file + ":" + std::to_string(entry.first.Mark().line + 1);
            const std::string full = path_.empty() ? "<document>" : path_;
            throw InputError(where + ": key '" + full + "': expected each key to be a name, got " +
                             quoted_value(entry.first) + " as a key");
        }
        const auto key = entry.first.as<std::string>();
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
            // yaml-cpp keeps the first of two equal keys; silently ignoring the second would hide a mistake.
            throw InputError(source_->file + ":" + std::to_string(entry.first.Mark().line + 1) + ": key '" + key_path(key) +
                             "': appears twice in the same section; expected each key once");
        }
        seen.push_back(key);
        if (std::find(candidates.begin(), candidates.end(), key) != candidates.end()) continue;
        auto hint = closest_match(key, candidates);
        std::string known;
        for (const auto& candidate : candidates) known += (known.empty() ? "" : ", ") + candidate;
        fail(key, "unknown key" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "; expected one of: " + known);
    }
}

void apply_override(YAML::Node& root, const std::string& assignment, DocumentSource& source) {
    const auto equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0)
        throw InputError("command line: --set '" + assignment + "': expected key.path=value, e.g. --set cluster.nodes=16");
    require_utf8(assignment, "command line: --set");
    const std::string path = assignment.substr(0, equals);
    const std::string value_text = assignment.substr(equals + 1);

    YAML::Node value;
    try {
        value = YAML::Load(value_text);
    } catch (const YAML::Exception&) {
        value = YAML::Node(value_text);  // not YAML: keep the text as a plain string
    }
    if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
    if (!root.IsMap()) throw InputError(source.file + ": the document is not a mapping, cannot apply --set " + path);

    YAML::Node current;
    current.reset(root);
    std::string walked;
    size_t start = 0;
    while (true) {
        const auto dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (part.empty()) throw InputError("command line: --set '" + assignment + "': empty key in '" + path + "'");
        walked += (walked.empty() ? "" : ".") + part;
        if (dot == std::string::npos) {
            current[part] = value;
            break;
        }
        YAML::Node next = current[part];
        if (!next.IsDefined() || next.IsNull()) {
            current[part] = YAML::Node(YAML::NodeType::Map);
            next = current[part];
        } else if (!next.IsMap()) {
            throw InputError("command line: --set " + assignment + ": key '" + walked + "' is not a section");
        }
        current.reset(next);
        start = dot + 1;
    }
    source.overrides[path] = value_text;
}

}  // namespace dtsim
