// `rigidref check --scenes-out FILE`: one JSON Lines record per scene.run
// case, for the report's scene section (tools/report/scene_results.hpp) and
// the committed data/validation/results/<engine>-scenes.jsonl:
//   {"engine", "id", "line", "family", "verdict",
//    "laws": {"<law>": {"verdict": "pass" | "fail", "error_eps", "budget_eps"}
//                   or {"verdict": "not judged", "reason": "..."}},
//    "series": {"dt", "record_every",
//               "energy0", "energy": [E_k - E_0 per frame],
//               "depth": [per frame; absent when no two bodies overlap],
//               "ramp": {"a", "motion", "along": [per frame]},
//               "bounce": {"e", "heights": [h_0, h_1, ...]}},
//    "detail"}
// Frame 0 is the request's state. The series are the judge's own per-frame
// quantities (rigidref/judge/scene.hpp, scene_series), printed with 4
// significant digits: they are for plots, the laws' verdicts are judged at
// full precision. A case the laws did not judge (the engine rejected it, a
// number not finite, an unreadable line) has its verdict and detail only.
#pragma once

#include "protocol/json.hpp"

#include "rigidref/judge/scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace rigidref::tools::check {

// A value with 4 significant digits, as a JSON number (0 for -0).
inline eval::json plot_number(long double x) {
  if (!std::isfinite(x)) return nullptr;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.4Lg", x);
  const double d = std::strtod(buf, nullptr);
  return d == 0 ? eval::json(0) : eval::json(d);
}

// The bounce heights of a dropped body from its clearance above the face
// per frame (negative: overlapping): h_0 is the first fall, h_k the k-th
// rise, each measured from where the body met the face: the lowest
// clearance before the rise when the body stayed above the face (an
// engine's skin), else the face itself (an engine that lets the body in
// before it pushes back). Newton's law puts h_k at e^(2k) h_0 (continuous
// time). The list ends at the first rise that is not complete in the frames
// or below h_0 / 10^4 (the body has come to rest: what follows is the
// solver's jitter, not a bounce).
inline std::vector<long double> bounce_heights(const std::vector<long double>& gap) {
  std::vector<long double> heights;
  if (gap.empty()) return heights;
  const long double start = gap[0];
  long double trough = start, peak = 0;
  bool rising = false;
  const auto level = [&] { return std::max(trough, static_cast<long double>(0)); };
  for (std::size_t k = 1; k < gap.size(); ++k) {
    if (!rising) {
      if (gap[k] <= trough) {
        trough = gap[k];
        continue;
      }
      if (heights.empty()) heights.push_back(start - level());  // the first fall ends
      rising = true;
      peak = gap[k];
    } else if (gap[k] >= peak) {
      peak = gap[k];
    } else {  // the apex was the last frame
      const long double h = peak - level();
      if (!(h > heights[0] / 10000)) return heights;
      heights.push_back(h);
      rising = false;
      trough = gap[k];
    }
  }
  if (heights.empty() && trough < start) heights.push_back(start - level());  // fell and never rose
  return heights;
}

inline eval::json scene_record(const std::string& engine, const eval::json& id, std::size_t line, const std::string& family,
                               const std::string& verdict, const std::string& detail, const judge::scene_verdict* judged) {
  using eval::json;
  json r = {{"engine", engine}, {"id", id}, {"line", line}, {"verdict", verdict}};
  if (!family.empty()) r["family"] = family;
  if (judged != nullptr) {
    json laws = json::object();
    for (const judge::field_verdict& v : judged->fields) {
      if (!v.judged) {
        laws[v.field] = {{"verdict", "not judged"}, {"reason", v.detail}};
        continue;
      }
      laws[v.field] = {{"verdict", v.pass ? "pass" : "fail"}};
      laws[v.field]["error_eps"] = std::isfinite(v.error_eps) ? json(v.error_eps) : json(nullptr);
      laws[v.field]["budget_eps"] = std::isfinite(v.budget_eps) ? json(v.budget_eps) : json(nullptr);
    }
    r["laws"] = std::move(laws);
    const judge::scene_series& s = judged->series;
    json series = {{"dt", static_cast<double>(s.dt)}, {"record_every", s.steps.size() > 1 ? s.steps[1] : 1}};
    if (!s.energy.empty()) {
      series["energy0"] = static_cast<double>(s.energy[0]);
      json e = json::array();
      for (const long double x : s.energy) e.push_back(plot_number(x - s.energy[0]));
      series["energy"] = std::move(e);
    }
    bool overlap = false;
    for (const long double d : s.depth) overlap = overlap || d > 0;
    if (overlap) {
      json d = json::array();
      for (const long double x : s.depth) d.push_back(plot_number(x));
      series["depth"] = std::move(d);
    }
    if (s.ramp) {
      json along = json::array();
      for (const long double x : s.ramp->along) along.push_back(plot_number(x));
      series["ramp"] = {{"a", static_cast<double>(s.ramp->a)}, {"motion", s.ramp->motion}, {"along", std::move(along)}};
    }
    if (!s.bounce_gap.empty()) {
      json heights = json::array();
      for (const long double h : bounce_heights(s.bounce_gap)) heights.push_back(plot_number(h));
      series["bounce"] = {{"e", static_cast<double>(s.bounce_e)}, {"heights", std::move(heights)}};
    }
    r["series"] = std::move(series);
  }
  if (!detail.empty()) r["detail"] = detail;
  return r;
}

}  // namespace rigidref::tools::check
