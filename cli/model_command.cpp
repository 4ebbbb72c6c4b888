// `dtsim model show NAME|FILE`: a zoo model, a model file in the zoo's format or a Hugging Face config.json,
// as the simulator sees it: its layers, parameters and forward FLOPs.
#include <iostream>
#include <map>
#include <memory>
#include <regex>

#include "commands.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/units.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

// A transformer's blocks repeat: "block0.attn" … "block31.attn" become one row "block[0-31].attn".
struct LayerRow {
    std::string name;
    int count = 0;
    double params = 0;
    double flops = 0;
};

std::vector<LayerRow> layer_rows(const ZooModel& model) {
    static const std::regex block(R"(block(\d+)\.(.+))");
    std::vector<LayerRow> rows;
    std::map<std::string, std::size_t> row_of_part;
    std::map<std::string, std::string> first_block;
    for (const auto& layer : model.layers) {
        std::smatch match;
        if (!std::regex_match(layer.name, match, block)) {
            rows.push_back({layer.name, 1, layer.params, layer.forward_flops_per_sample});
            continue;
        }
        const auto part = match[2].str();
        auto [it, added] = row_of_part.try_emplace(part, rows.size());
        if (added) {
            rows.push_back({"", 0, layer.params, layer.forward_flops_per_sample});
            first_block[part] = match[1].str();
        }
        auto& row = rows[it->second];
        ++row.count;
        row.name = "block[" + first_block[part] + "-" + match[1].str() + "]." + part;
    }
    return rows;
}

void print_model(std::ostream& out, const ZooModel& model) {
    out << model.name << ": " << model.description << "\n";
    out << "  source: " << model.source << "\n";
    out << "  sample: " << model.sample << "\n";
    if (const auto& t = model.transformer)
        out << "  transformer: " << t->architecture << ", " << t->layers << " layers, hidden " << t->hidden << ", " << t->heads
            << " heads (" << t->kv_heads << " key/value), ffn " << t->ffn << ", vocabulary " << t->vocabulary
            << (t->moe() ? ", " + std::to_string(t->experts) + " experts, top " + std::to_string(t->top_k) : "") << "\n";
    out << "  parameters: " << format_count(model.total_parameters()) << " (" << fixed(model.total_parameters(), 0) << ")\n";
    out << "  forward per sample: " << format_flops(model.forward_flops_per_sample()) << " (a training step: about 3x that)\n\n";
    TextTable table({"layer", "count", "parameters each", "forward per sample, each"}, {false, true, true, true});
    for (const auto& row : layer_rows(model))
        table.add_row({row.name, std::to_string(row.count), format_count(row.params), format_flops(row.flops)});
    table.print(out, "  ");
}

}  // namespace

void add_model_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("model", "Show a model: a zoo name, a model file or a Hugging Face config.json");
    cmd->require_subcommand(1);
    auto name = std::make_shared<std::string>();
    auto* show = cmd->add_subcommand("show", "Print a model's layers, parameters and forward FLOPs");
    show->add_option("model", *name, "Zoo name (data/models/), model file (.yaml) or Hugging Face config.json")->required();
    show->callback([name, &exit_code] {
        print_model(std::cout, load_model(*name, "", "model '" + *name + "'"));
        exit_code = exit_code::ok;
    });
}

}  // namespace dtsim::cli
