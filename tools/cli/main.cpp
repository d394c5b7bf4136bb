// rigidref: the command-line front end of the reference library.
//   rigidref report   run every accuracy table and print the verdicts
//   rigidref eval     answer JSON Lines requests (docs/eval-protocol.md)
//   rigidref check    judge another engine's answers against the reference
//   rigidref cases    write a validation case set (data/validation/)
//   rigidref campaign the long collision campaign (GJK, EPA, SAT against the exact oracle)
//   rigidref scene    run an article scene step by step, article or reference model (JSON Lines, SVG)
//   rigidref version  print the version (also --version)
// eval, check and version are registered here; the others in more_subcommands.cpp.
// The first line of each subcommand's description is its summary in --help
// (summary_formatter.hpp). Exit status 2 is bad usage, for every subcommand.
#include "check/check.hpp"
#include "cli/more_subcommands.hpp"
#include "cli/summary_formatter.hpp"
#include "eval/eval.hpp"
#include "protocol/input_file.hpp"

#include "rigidref/error_text.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#ifndef RIGIDREF_VERSION
#error "RIGIDREF_VERSION (the project's VERSION) is set by tools/CMakeLists.txt"
#endif

namespace {

constexpr const char* version_line = "rigidref " RIGIDREF_VERSION;

// The names of the subcommands, in the order --help lists them.
std::string subcommand_list(const CLI::App& app) {
  std::string list;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    list += (list.empty() ? "" : ", ") + sub->get_name();
  return list;
}

// The first argument that is no option: the subcommand rigidref was asked
// for (the app itself takes flags only), or nullptr.
const char* subcommand_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] != '-') return argv[i];
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "rigidref: a verified numerical reference for 2D rigid-body collision.\n"
      "Every number it prints is checked against an exact (rational) or 100+ digit answer.",
      "rigidref"};
  app.formatter(std::make_shared<rigidref::tools::summary_formatter>());
  app.require_subcommand(1);
  app.set_version_flag("--version", version_line, "Print the version and exit");

  // report first in --help: it is the main job.
  const auto run_report = rigidref::tools::add_report_subcommand(app);

  std::string eval_file = "-";
  CLI::App* eval = app.add_subcommand(
      "eval",
      "Answer JSON Lines requests (docs/eval-protocol.md).\n"
      "Reads FILE, or standard input when FILE is absent or \"-\", and writes one JSON answer line per\n"
      "request line on standard output, in order, flushed after each (blank lines get none). Example:\n"
      "  echo '{\"id\":1,\"op\":\"mass.polygon\",\"vertices\":[[0,0],[2,0],[2,1],[0,1]]}' | rigidref eval\n"
      "A request may set \"precision\": float, double (default), long double, mp50, mp100, exact (rational).\n"
      "Errors are answer lines with a code: parse_error (the line is not a JSON object; the message\n"
      "names its input line and column), unknown_op, invalid_input, domain_error, unsupported,\n"
      "no_convergence. Limits per request: docs/eval-protocol.md, section 1.4.\n"
      "Exit status 0 when every line got an answer (error answers included), 2 on bad usage or a FILE\n"
      "that cannot be read.");
  eval->add_option("FILE", eval_file, "Request file (JSON Lines); \"-\" or absent: standard input");
  eval->footer(rigidref::tools::ops_help());

  rigidref::tools::check_options check_opts;
  CLI::App* check = app.add_subcommand(
      "check",
      "Judge another engine's answers against the reference.\n"
      "  rigidref check ANSWERS --cases CASES   (ANSWERS: a file, or standard input)\n"
      "Input: JSON Lines, one per case: the case's fields (id, op, inputs, as the engine used them),\n"
      "the engine's \"result\" (only the op's result fields) or \"error\", its \"engine\" name, its working\n"
      "\"precision\" (float, double, ...: errors are counted in its epsilon), optional \"allowances\" for\n"
      "what it approximates on purpose and \"diagnostics\" for anything else (docs/adapters.md).\n"
      "With --cases every case must be answered exactly once with its own inputs. Each case is\n"
      "recomputed exactly (or in 100 digits) and every field judged against its budget\n"
      "(derivations/judge.md); an unknown result field, or an answer in which nothing could be\n"
      "judged, fails. Prints a table per engine and op, a table by case family, the coverage and the\n"
      "worst failing cases with a command that reproduces them. --shard K/N and --merge split a\n"
      "large answer file by lines (docs/scale-out.md). Exit status 0 if none fails, 1 if any fails,\n"
      "2 on bad usage.");
  rigidref::tools::add_check_options(*check, check_opts);

  const auto run_more = rigidref::tools::add_more_subcommands(app);

  CLI::App* version = app.add_subcommand("version", std::string("Print the version (") + version_line + ") and exit.");
  // After the subcommands: they would inherit it.
  app.footer(
      "Run `rigidref SUBCOMMAND --help` for a subcommand's options and exit status.\n"
      "Exit status 2 on bad usage, for every subcommand.\n");

  if (argc < 2) {
    std::cerr << "usage: rigidref SUBCOMMAND [OPTIONS]; the subcommands are: " << subcommand_list(app) << "\n"
              << "Run `rigidref --help` for what each does.\n";
    return 2;
  }
  if (const char* word = subcommand_word(argc, argv)) {
    const auto named = app.get_subcommands([&](const CLI::App* sub) { return sub->get_name() == word; });
    if (named.empty()) {
      std::cerr << "rigidref: unknown subcommand " << rigidref::quoted_excerpt(word)
                << "; the subcommands are: " << subcommand_list(app) << "\n"
                << "Run `rigidref --help` for what each does.\n";
      return 2;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // the protocol reserves 2 for bad command-line usage
  }
  if (*version) {
    std::cout << version_line << "\n";
    return 0;
  }
  if (const auto status = run_report()) return *status;
  if (const auto status = run_more()) return *status;
  if (*check) return rigidref::tools::run_check(check_opts, std::cin, std::cout, std::cerr);
  if (*eval) {
    try {
      rigidref::tools::input_file input(eval_file);
      return rigidref::tools::run_eval(input.stream(), std::cout);
    } catch (const rigidref::tools::input_error& e) {
      std::cerr << "rigidref eval: " << e.what() << "\n";
      return 2;
    }
  }
  return 2;
}
