#include "advise_result.hpp"

#include <nlohmann/json.hpp>

#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/utf8_text.hpp"

namespace dtsim::gui {
namespace {

using Json = nlohmann::json;

// Reads the members of one JSON object, each error naming where the object is.
class Fields {
public:
    Fields(const Json& object, std::string where) : object_(object), where_(std::move(where)) {
        if (!object_.is_object()) fail("expected an object, got " + std::string(object_.type_name()));
    }
    const Json& at(const std::string& key) const {
        const auto it = object_.find(key);
        if (it == object_.end()) fail("key '" + key + "' missing");
        return *it;
    }
    bool has(const std::string& key) const { return object_.contains(key); }
    double number(const std::string& key) const {
        return checked(key, at(key).is_number() && at(key).get<double>() >= 0, "a number of at least 0").get<double>();
    }
    std::optional<double> number_or_null(const std::string& key) const {
        return at(key).is_null() ? std::nullopt : std::optional(number(key));
    }
    int count(const std::string& key) const {
        const auto& value = checked(key, at(key).is_number_integer() && at(key).get<long long>() >= 1, "a whole number of at least 1");
        return value.get<int>();
    }
    std::string text(const std::string& key) const { return checked(key, at(key).is_string(), "a string").get<std::string>(); }
    bool flag(const std::string& key) const { return checked(key, at(key).is_boolean(), "true or false").get<bool>(); }
    [[noreturn]] void fail(const std::string& what) const { throw InputError(where_ + ": " + what); }
    const std::string& where() const { return where_; }

private:
    const Json& checked(const std::string& key, bool ok, const std::string& expected) const {
        if (!ok) fail("key '" + key + "': expected " + expected + ", got " + at(key).dump());
        return at(key);
    }
    const Json& object_;
    std::string where_;
};

AdvisePoint read_point(const Fields& f, size_t option) {
    AdvisePoint p;
    p.option = option;
    p.configuration = printable_text(f.text("configuration"));
    if (!f.at("run_id").is_null()) {
        if (!f.at("run_id").is_number_integer() || f.at("run_id").get<long long>() < 1)
            f.fail("key 'run_id': expected a run id (a positive integer) or null, got " + f.at("run_id").dump());
        p.run_id = f.at("run_id").get<std::int64_t>();
    }
    p.tensor = f.count("tensor");
    p.pipeline = f.count("pipeline");
    p.context = f.count("context");
    p.expert = f.count("expert");
    p.data = f.count("data");
    p.iteration_time_s = f.number("iteration_time_s");
    p.tokens_per_s = f.number("tokens_per_s");
    p.mfu = f.number("mfu");
    p.memory_per_gpu_bytes = f.number("memory_per_gpu_bytes");
    const Fields exposed(f.at("exposed_s"), f.where() + ", exposed_s");
    for (int d = 0; d < kDimensions; ++d) p.exposed_s[static_cast<size_t>(d)] = exposed.number(std::string(kDimensionNames.name(static_cast<Dimension>(d))));
    p.time_to_train_s = f.number("time_to_train_s");
    p.cost_usd = f.number_or_null("cost_usd");
    if (f.has("owned_usd")) {
        p.owned_usd = f.number_or_null("owned_usd");
        p.owned_complete = f.flag("owned_complete");
    }
    p.pareto = f.flag("pareto");
    return p;
}

}  // namespace

AdviseResult read_advise_json(const std::string& path) {
    Json document;
    try {
        document = Json::parse(read_text_file(path));
    } catch (const Json::parse_error& e) {
        throw InputError(path + ": not JSON (" + e.what() + "); expected what dtsim advise --json writes");
    }
    if (!document.is_array() || document.empty())
        throw InputError(path + ": expected the array of options dtsim advise --json writes, got " +
                         (document.is_array() ? std::string("an empty array") : std::string(document.type_name())));
    AdviseResult result;
    for (size_t i = 0; i < document.size(); ++i) {
        const Fields option(document[i], path + ": option " + std::to_string(i + 1));
        const auto name = printable_text(option.text("option"));
        const std::string where = path + ": option " + std::to_string(i + 1) + " ('" + name + "')";
        if (!option.has("configurations"))
            throw InputError(where + ": key 'configurations' missing: written by a dtsim before the GUI's Advise view; run dtsim advise again");
        const auto& configurations = option.at("configurations");
        if (!configurations.is_array()) throw InputError(where + ": key 'configurations': expected an array, got " + configurations.dump());
        result.options.push_back(name);
        for (size_t k = 0; k < configurations.size(); ++k) {
            const Fields configuration(configurations[k], where + ", configuration " + std::to_string(k + 1));
            if (configuration.has("failure"))
                ++result.failed;
            else
                result.points.push_back(read_point(configuration, i));
        }
    }
    return result;
}

}  // namespace dtsim::gui
