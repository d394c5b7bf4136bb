// The report's second table: properties and measured effects that are not
// accuracy-against-an-oracle rows — the sequential-impulse solver's
// convergence, and what each quirk of the article's BodyForce.js breaks.
#pragma once

#include "report/report.hpp"

#include <functional>
#include <string>
#include <vector>

namespace rigidref::tools {

struct measured_row {
  std::string topic;           // "solver", "body_force"
  std::string quantity;        // what was measured
  std::string type;            // precision, or "exact"
  int cases = 0;
  double value = 0;            // the measurement
  std::string unit;            // its unit or meaning
  std::string expectation;     // the bound it must meet, or "reported"
  std::string verdict;         // pass, FAIL, finding
  std::string why;             // derivation anchors
  std::string counterexample;  // data/counterexamples/ file showing it, if any
};

// `stage` reports progress ("solver: double").
std::vector<measured_row> run_measurements(const report_options& o, const std::function<void(const std::string&)>& stage);

}  // namespace rigidref::tools
