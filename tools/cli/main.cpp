// rigidref: the command-line front end of the reference library.
//   rigidref report   run every accuracy table and print the verdicts
//   rigidref eval     answer JSON Lines requests (docs/eval-protocol.md)
//   rigidref check    judge another engine's answers against the reference
//   rigidref cases    write a validation case set (data/validation/)
//   rigidref campaign the long collision campaign (GJK, EPA, SAT against the exact oracle)
//   rigidref scene    run an article scene step by step, article or reference model (JSON Lines, SVG)
// eval and check are registered here; the others in more_subcommands.cpp.
#include "check/check.hpp"
#include "cli/more_subcommands.hpp"
#include "eval/eval.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{
      "rigidref: a verified numerical reference for 2D rigid-body collision.\n"
      "Every number it prints is checked against an exact (rational) or 100+ digit answer."};
  app.require_subcommand(1);

  // report first in --help: it is the main job.
  const auto run_more = rigidref::tools::add_more_subcommands(app);

  CLI::App* eval = app.add_subcommand(
      "eval",
      "Read JSON Lines requests on standard input and write one JSON answer line per request on\n"
      "standard output, in order (the protocol: docs/eval-protocol.md). Example:\n"
      "  echo '{\"id\":1,\"op\":\"mass.polygon\",\"vertices\":[[0,0],[2,0],[2,1],[0,1]]}' | rigidref eval\n"
      "Precisions: float, double (default), long double, mp50, mp100, exact (rational).\n"
      "Errors are answer lines with a code: parse_error, unknown_op, invalid_input, domain_error,\n"
      "unsupported, no_convergence.\n"
      "Exit status 0 when every line got an answer (error answers included), 2 on bad usage.");
  eval->footer(rigidref::tools::ops_help());

  rigidref::tools::check_options check_opts;
  CLI::App* check = app.add_subcommand(
      "check",
      "Judge another engine's answers against the reference. Input: JSON Lines, one per case: the\n"
      "request's fields (id, op, inputs, as the engine used them), the engine's \"result\" (or \"error\"),\n"
      "its \"engine\" name, its working \"precision\" (float, double, ...: errors are counted in its\n"
      "epsilon) and optional \"allowances\" for what it approximates on purpose (README.md,\n"
      "\"Checking an engine\"). Each case is recomputed exactly (or in 100 digits) and every field\n"
      "judged against its op's budget; prints a table per engine and op and the worst failing cases\n"
      "with a command that reproduces them. --shard K/N and --merge split a large answer file by lines\n"
      "(docs/scale-out.md). Exit status 0 if none fails, 1 if any fails, 2 on bad usage.");
  rigidref::tools::add_check_options(*check, check_opts);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // the protocol reserves 2 for bad command-line usage
  }
  if (const auto status = run_more()) return *status;
  if (*check) return rigidref::tools::run_check(check_opts, std::cin, std::cout, std::cerr);
  if (*eval) return rigidref::tools::run_eval(std::cin, std::cout);
  return 2;
}
