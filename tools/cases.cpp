// `rigidref cases`: the validation case sets of data/validation/, as eval
// request lines, reproducible from a seed. Every input is a float, written
// exactly as a double, so an engine computing in float (Box2D) and one in
// double (Chipmunk, libccd) solve the very same problem as the reference.
//
// Set "mass": the mass-property corpus of the report (verify/mass_corpus.hpp:
// convex, star, comb and needle polygons, 1e-3 .. 1e3 in size, up to the
// offset float can carry), half as many convex polygons of at most 8
// vertices (what Box2D takes), then named adversarial cases: a unit box at
// growing distance from the origin (Box2D #949/#1006), a box below Box2D's
// weld distance, an 8-gon and a 9-gon (b2_maxPolygonVertices = 8).
#include "cases.hpp"
#include "eval_json.hpp"

#include "rigidref/verify/mass_corpus.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace rigidref::tools {

void add_cases_options(CLI::App& cmd, cases_options& opts) {
  cmd.add_option("--set", opts.set, "Which case set: mass (mass.polygon requests)")
      ->check(CLI::IsMember({"mass"}))
      ->capture_default_str();
  cmd.add_option("--seed", opts.seed, "Seed of the random part; the same seed gives the same file")
      ->capture_default_str();
  cmd.add_option("--count", opts.count, "Number of random cases (the named adversarial cases come on top)")
      ->capture_default_str();
}

namespace {

using eval::ojson;

ojson polygon_json(const std::vector<vec2<float>>& v) {
  ojson list = ojson::array();
  for (const auto& p : v) list.push_back(ojson::array({static_cast<double>(p.x), static_cast<double>(p.y)}));
  return list;
}

void write_mass_case(std::ostream& out, const std::string& id, const std::string& label,
                     const std::vector<vec2<float>>& v) {
  ojson r = ojson::object();
  r["id"] = id;
  r["op"] = "mass.polygon";
  r["label"] = label;
  r["vertices"] = polygon_json(v);
  r["density"] = 1;
  out << eval::to_json_text(r) << '\n';
}

std::vector<vec2<float>> box(float x, float y, float w, float h) {
  return {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}};
}

}  // namespace

int run_cases(const cases_options& opts, std::ostream& out) {
  const auto corpus = verify::polygon_corpus<float>(opts.seed, opts.count);
  for (std::size_t i = 0; i < corpus.size(); ++i)
    write_mass_case(out, "mass-" + std::to_string(i), corpus[i].label, corpus[i].vertices);
  // Convex polygons of 3..8 vertices, the only ones Box2D takes: the random
  // corpus has up to 64 vertices, so draw until the count fits.
  verify::rng g(opts.seed + 1);
  for (std::size_t i = 0; i < opts.count / 2; ++i) {
    verify::polygon_case<float> c = verify::random_polygon<float>(g, verify::polygon_kind::convex);
    while (c.vertices.size() > 8) c = verify::random_polygon<float>(g, verify::polygon_kind::convex);
    write_mass_case(out, "mass-small-convex-" + std::to_string(i), c.label, c.vertices);
  }
  for (int e = 0; e <= 6; ++e) {
    const float offset = static_cast<float>(std::pow(10.0, e));
    write_mass_case(out, "mass-far-box-1e" + std::to_string(e), "unit box at offset 1e" + std::to_string(e),
                    box(offset, offset, 1, 1));
  }
  write_mass_case(out, "mass-tiny-box", "box of side 1e-3, below Box2D's weld distance 2.5e-3",
                  box(0, 0, 1e-3f, 1e-3f));
  std::vector<vec2<float>> octagon, nonagon;
  for (int k = 0; k < 8; ++k) octagon.push_back({static_cast<float>(std::cos(k * 0.785398163397448)),
                                                 static_cast<float>(std::sin(k * 0.785398163397448))});
  for (int k = 0; k < 9; ++k) nonagon.push_back({static_cast<float>(std::cos(k * 0.698131700797732)),
                                                 static_cast<float>(std::sin(k * 0.698131700797732))});
  write_mass_case(out, "mass-octagon", "8 vertices (Box2D's maximum)", octagon);
  write_mass_case(out, "mass-nonagon", "9 vertices (one more than Box2D takes)", nonagon);
  return 0;
}

}  // namespace rigidref::tools
