// rigidref: the command-line front end of the reference library.
//   rigidref report   run every accuracy table and print the verdicts
//   rigidref eval     answer JSON Lines requests (docs/eval-protocol.md)
//   rigidref check    judge another engine's answers against the reference
//   rigidref cases    write a validation case set (data/validation/)
//   rigidref campaign the long collision campaign (GJK, EPA, SAT against the exact oracle)
//   rigidref scene    run an article scene step by step, article or reference model (JSON Lines, SVG)
#include "campaign/campaign.hpp"
#include "cases/cases.hpp"
#include "check/check.hpp"
#include "eval/eval.hpp"
#include "report/report.hpp"
#include "scene/scene.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{
      "rigidref: a verified numerical reference for 2D rigid-body collision.\n"
      "Every number it prints is checked against an exact (rational) or 100+ digit answer."};
  app.require_subcommand(1);

  rigidref::tools::report_options report_opts;
  CLI::App* report = app.add_subcommand(
      "report",
      "Measure every implemented function in every precision against its oracle and print the\n"
      "accuracy table: cases, max and RMS error in epsilons, max distance in ulps from the\n"
      "correctly rounded answer, the bound it must meet, and a verdict. Exits 1 if any bound fails.");
  rigidref::tools::add_report_options(*report, report_opts);

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

  rigidref::tools::cases_options cases_opts;
  CLI::App* cases = app.add_subcommand(
      "cases",
      "Write a validation case set as eval request lines on standard output (data/validation/ holds the\n"
      "committed sets; an engine adapter answers them and `rigidref check` judges the answers). Every\n"
      "input is a float written exactly, so float and double engines solve the same problem.");
  rigidref::tools::add_cases_options(*cases, cases_opts);

  rigidref::tools::campaign_options campaign_opts;
  CLI::App* campaign = app.add_subcommand(
      "campaign",
      "The long collision campaign (not in CI): random and adversarial convex pairs per type (exactly\n"
      "touching, parallel edges, shared vertices, needles, far offsets, size ratios, collinear and\n"
      "repeated vertices) through gjk_distance, epa_penetration and sat, each compared with the exact\n"
      "oracle: decisions must agree, values within the bounds of internal/bounds.hpp, every query timed.\n"
      "Prints a table per type and kind with the worst case in full; progress every 2 s and timing on\n"
      "stderr. --shard K/N and --merge run it as N shards under GNU parallel or Slurm (docs/scale-out.md).\n"
      "Exit status 1 on any failure or hang, 2 on bad usage or shards that do not merge.");
  rigidref::tools::add_campaign_options(*campaign, campaign_opts);

  rigidref::tools::scene_options scene_opts;
  CLI::App* scene = app.add_subcommand(
      "scene",
      "Run one of the articles' two scenes step by step and print every body's position, angle,\n"
      "velocity and angular velocity after each step as JSON Lines (derivations/scenes.md).\n"
      "`--model article` is the page's code ported faithfully (in double with --js-libm it reproduces\n"
      "data/golden/scene_*.json bit for bit); `--model reference` runs it with rigidref's components.");
  rigidref::tools::add_scene_options(*scene, scene_opts);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // the protocol reserves 2 for bad command-line usage
  }
  if (*report) return rigidref::tools::run_report(report_opts, std::cout, std::cerr);
  if (*cases) return rigidref::tools::run_cases(cases_opts, std::cout);
  if (*campaign) return rigidref::tools::run_campaign(campaign_opts, std::cout, std::cerr);
  if (*scene) return rigidref::tools::run_scene(scene_opts, std::cout, std::cerr);
  if (*check) return rigidref::tools::run_check(check_opts, std::cin, std::cout, std::cerr);
  if (*eval) return rigidref::tools::run_eval(std::cin, std::cout);
  return 2;
}
