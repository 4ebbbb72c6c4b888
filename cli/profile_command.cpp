// `dtsim profile show FILE`: a profile's fits as a table.
// `dtsim profile datasheet --gpu G --nic N`: a profile derived from presets (how data/profiles/ is made).
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "dtsim/calibrate/datasheet_profile.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/output_files.hpp"
#include "profile_report.hpp"

namespace dtsim::cli {

void add_profile_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("profile", "Show a profile, or derive one from hardware presets");
    cmd->require_subcommand(1);

    auto file = std::make_shared<std::string>();
    auto* show = cmd->add_subcommand("show", "Print a profile's fits");
    show->add_option("file", *file, "Profile JSON")->required();
    show->callback([file, &exit_code] {
        print_profile_report(std::cout, load_profile_file(*file));
        exit_code = exit_code::ok;
    });

    struct DatasheetOptions {
        std::string name, gpu, intra_node, nic, out;
    };
    auto options = std::make_shared<DatasheetOptions>();
    auto* datasheet = cmd->add_subcommand("datasheet", "Derive a profile from GPU and network presets (source: datasheet)");
    datasheet->add_option("--name", options->name, "Profile name")->required();
    datasheet->add_option("--gpu", options->gpu, "GPU preset")->required();
    datasheet->add_option("--intra-node", options->intra_node, "Intra-node link preset (default: the GPU's)");
    datasheet->add_option("--nic", options->nic, "NIC preset")->required();
    datasheet->add_option("--out", options->out, "Write the profile JSON here")->required();
    datasheet->callback([options, &exit_code] {
        prepare_output_files({{"--out", options->out}});
        const auto gpu = load_gpu_preset(options->gpu, "--gpu");
        const auto intra = load_network_preset(options->intra_node.empty() ? gpu.intra_node : options->intra_node, "--intra-node");
        const auto nic = load_network_preset(options->nic, "--nic");
        const auto profile = calibrate::datasheet_profile(options->name, gpu, intra, nic);
        write_text_file(options->out, profile_to_json(profile));
        print_profile_report(std::cout, profile);
        std::cout << "\n  written to " << options->out << "\n";
        exit_code = exit_code::ok;
    });
}

}  // namespace dtsim::cli
