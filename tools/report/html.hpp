// The verification report as a self-contained HTML page (inline CSS and SVG,
// no network): the accuracy table with verdicts and derivation links, the
// worst cases, the error-versus-condition plot of the matrix square root,
// the measured properties, and the engine validation summaries committed in
// data/validation/results/ as bars and an engine x op matrix
// (report/engine_matrix.hpp, derivations/engines.md).
#pragma once

#include "report/measurements.hpp"

#include "rigidref/verify/accuracy.hpp"
#include "rigidref/internal/mass_accuracy.hpp"
#include "rigidref/internal/matrix_accuracy.hpp"
#include "report/scene.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace rigidref::tools {

struct html_row {
  const verify::error_stats* stats;
  std::string bound;    // "1 / 1.5", "inf / inf"
  std::string verdict;  // pass, FAIL, finding
  std::string why;      // derivation anchors, e.g. "D-MASS-5, D-MASS-9"
};

// Per-case data behind the plots.
struct plot_data {
  std::vector<verify::condition_sample> condition;                // matrix square root
  std::vector<verify::offset_sample> offsets;                      // triangle inertia
  std::vector<std::pair<std::string, double>> epa_depth_eps;       // (type, error in eps)
};

// Writes the page to `path`; `header` is the report's one-line summary.
void write_html_report(const std::string& path, const std::string& header, const std::vector<html_row>& rows,
                       const plot_data& plots, const std::vector<measured_row>& measured,
                       const scene_report& scene, bool with_rendered_derivations,
                       const std::vector<std::filesystem::path>& engine_results);

}  // namespace rigidref::tools
