// The verification report as a self-contained HTML page (inline CSS and SVG,
// no network): the accuracy table with verdicts and derivation links, the
// worst cases, the error-versus-condition plot of the matrix square root,
// the measured properties, and the engine validation summaries committed in
// data/validation/results/ (derivations/engines.md).
#pragma once

#include "report_measurements.hpp"

#include "rigidref/verify/accuracy.hpp"
#include "rigidref/verify/matrix_accuracy.hpp"

#include <string>
#include <vector>

namespace rigidref::tools {

struct html_row {
  const verify::error_stats* stats;
  std::string bound;    // "1 / 1.5", "inf / inf"
  std::string verdict;  // pass, FAIL, finding
  std::string why;      // derivation anchors, e.g. "D-MASS-5, D-MASS-9"
};

// Writes the page to `path`; `header` is the report's one-line summary.
void write_html_report(const std::string& path, const std::string& header, const std::vector<html_row>& rows,
                       const std::vector<verify::condition_sample>& samples,
                       const std::vector<measured_row>& measured, bool with_rendered_derivations);

}  // namespace rigidref::tools
