// The help layout of rigidref: `rigidref --help` lists each subcommand with
// the first line of its description (its one-line summary), and
// `rigidref SUBCOMMAND --help` prints the whole description. Subcommands
// inherit the formatter of the app, so set it before adding them.
#pragma once

#include <CLI/CLI.hpp>

#include <sstream>
#include <string>

namespace rigidref::tools {

class summary_formatter : public CLI::Formatter {
 public:
  std::string make_subcommand(const CLI::App* sub) const override {
    const std::string& description = sub->get_description();
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true), description.substr(0, description.find('\n')),
                             column_width_);
    return out.str();
  }
};

}  // namespace rigidref::tools
