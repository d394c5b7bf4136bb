// The report's scene section: the per-case records of `rigidref check
// --scenes-out` committed as data/validation/results/*-scenes.jsonl
// (check/scene_records.hpp; the ctests engine_*-scenes keep them current,
// tools/engine_results.sh rewrites them) and a user's own (rigidref report
// --engine-results DIR), read back as
//   - the engine x law table of scene.run: per engine, the cases passed and
//     failed, and per law the cases it passed and failed (and how many it
//     did not judge); README.md's table is this one (rigidref report
//     --scene-table prints it);
//   - per engine, four plots of the series the judge measured: bounce
//     heights h_k / h_0 against e^(2k) (Newton's restitution, continuous
//     time), the distance down each ramp against time beside the closed
//     form a t^2 / 2, the deepest overlap over time in the stack of 10 and
//     the 1:100 stack, and the energy over time in those stacks and the
//     e = 1 drops (derivations/scene_run.md).
// Nothing here runs an engine.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rigidref::tools {

// One law of one engine: cases it passed, failed, and did not judge (a case
// without laws, rejected or not finite, counts as not judged).
struct scene_law_count {
  std::string law;
  long pass = 0, fail = 0, not_judged = 0;
};

// What the plots need of one case (check/scene_records.hpp "series").
struct scene_case_series {
  std::string id, family, verdict;
  double dt = 0;
  long record_every = 1;
  std::vector<double> energy;  // E_k - E_0 per frame (J); empty: no dynamic body, or not judged
  std::vector<double> depth;   // per frame (m); empty: no two bodies overlap in any frame
  struct ramp_run {
    double a = 0;
    std::string motion;
    std::vector<double> along;  // per frame (m), up to the face's end
  };
  std::optional<ramp_run> ramp;
  struct bounce_run {
    double e = 0;
    std::vector<double> heights;  // h_0, h_1, ... (m)
  };
  std::optional<bounce_run> bounce;
};

struct scene_engine_records {
  std::string engine, file;  // the engine's name in the records, the file it came from
  long cases = 0, pass = 0, fail = 0, other = 0;  // other: skipped, rejected by both, unreadable
  std::vector<scene_law_count> laws;  // the judge's order; a law no record names has no entry
  std::vector<scene_case_series> series;  // every case the laws judged, in file order
};

struct scene_records {
  std::vector<scene_engine_records> engines;  // files in name order, engines in file order
};

// Every *-scenes.jsonl in `dir`, files in name order. Throws
// std::runtime_error on a line that is not a record.
scene_records read_scene_records(const std::filesystem::path& dir);

// The committed directory's records (none when it does not exist), then
// those of each user directory in `more` (--engine-results), each file named
// by its path. A directory of `more` without scene records adds nothing;
// one that is not a directory throws std::runtime_error.
scene_records read_scene_records(const std::filesystem::path& committed, const std::vector<std::filesystem::path>& more);

// The laws in the judge's order (rigidref/judge/scene.hpp), then any other
// law a record names, in name order: the table's columns.
std::vector<std::string> scene_laws(const scene_records& records);

// The scenes the depth and the energy plots show, by case id
// (data/validation/scenes.jsonl).
const std::vector<std::string>& scene_depth_plot_ids();
const std::vector<std::string>& scene_energy_plot_ids();

// The engine x law table as Markdown (README.md, the terminal report):
// "pass / fail" per cell, "–" where the law judged no case of the engine.
std::string scene_table_markdown(const scene_records& records);
// The section of the HTML page: the table and each engine's four plots.
std::string scene_section_html(const scene_records& records);

}  // namespace rigidref::tools
