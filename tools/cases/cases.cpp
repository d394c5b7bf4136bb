// `rigidref cases`: the validation case sets of data/validation/, as eval
// request lines, reproducible from a seed. Every input is a float, written
// exactly as a double, so an engine computing in float (Box2D) and one in
// double (Chipmunk, libccd) solve the very same problem as the reference.
// With no --count and --seed a set is the committed file, byte for byte
// (default_count, seed 20261122). Every case carries a `family` after its
// label: the short name of the family it was drawn from, for the judge's
// pass/fail breakdown.
//
// Set "mass": the mass-property corpus of the report (internal/mass_corpus.hpp:
// convex, star, comb and needle polygons, 1e-3 .. 1e3 in size, up to the
// offset float can carry; random-convex, -star, -comb, -needle), half as
// many convex polygons of at most 8 vertices (what Box2D takes;
// random-convex-max-8), then named adversarial cases: a unit box at growing
// distance from the origin (Box2D #949/#1006; unit-box-offset), a box below
// Box2D's weld distance (below-weld-distance), an 8-gon and a 9-gon
// (b2_maxPolygonVertices = 8; max-vertices); then the labelled families of
// families.hpp (many vertices, offset 1 .. 1e6 sizes, tiny, huge, needles).
//
// Set "collision": random pairs (random-pair), named pairs (named-<group>),
// then the pair families of families.hpp (many vertices, offset, tiny, huge,
// touching, shallow, deep, needles), then the shape families of
// shape_families.hpp (circles, points, segments, capsules and rounded
// polygons against polygons and each other, along the axes; the plank and
// point of Box2D v3's short-edge test; then the same families turned by
// random angles).
//
// Set "manifold": contact.manifold requests on the random pairs of the set
// "collision" (same seed, same pairs), then named face/vertex contacts whose
// manifolds are known by hand, then the same pair families as "collision",
// then the circle pairs of the shape families (the first two of each kind
// along the axes, and every turned one).
#include "cases/cases.hpp"
#include "cases/dynamics_set.hpp"
#include "cases/scene_set.hpp"
#include "cases/families.hpp"
#include "cases/shape_families.hpp"
#include "cases/strictly_convex.hpp"
#include "protocol/json.hpp"

#include "rigidref/predicates.hpp"
#include "rigidref/internal/mass_corpus.hpp"

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace rigidref::tools {

void add_cases_options(CLI::App& cmd, cases_options& opts) {
  cmd.add_option("--set", opts.set,
                 "Which case set: mass (mass.polygon requests), collision (gjk.distance and\n"
                 "epa.penetration requests on the same convex pairs), manifold (contact.manifold\n"
                 "requests on those pairs and on named face/vertex contacts), dynamics\n"
                 "(step.pair requests: two bodies in contact, one step) or scenes (scene.run requests:\n"
                 "ramps, rolling, bounces, head-on pairs, free flight, stacks; no random part)")
      ->check(CLI::IsMember({"mass", "collision", "manifold", "dynamics", "scenes"}))
      ->capture_default_str();
  cmd.add_option("--seed", opts.seed,
                 "Seed of the random part; the same seed gives the same file (the committed sets: 20261122)")
      ->capture_default_str();
  cmd.add_option("--count", opts.count,
                 "Number of random cases (the named cases and the families come on top); default per set,\n"
                 "that of the committed file: mass 400, collision 300, manifold 300, dynamics 120");
}

std::size_t default_count(const std::string& set) {
  if (set == "dynamics") return 120;
  if (set == "mass") return 400;
  return 300;  // collision, and manifold (the same random pairs)
}

namespace {

using eval::ojson;

ojson polygon_json(const std::vector<vec2<float>>& v) {
  ojson list = ojson::array();
  for (const auto& p : v) list.push_back(ojson::array({static_cast<double>(p.x), static_cast<double>(p.y)}));
  return list;
}

void write_mass_case(std::ostream& out, const std::string& id, const std::string& family, const std::string& label,
                     const std::vector<vec2<float>>& v) {
  ojson r = ojson::object();
  r["id"] = id;
  r["op"] = "mass.polygon";
  r["label"] = label;
  r["family"] = family;
  r["vertices"] = polygon_json(v);
  r["density"] = 1;
  out << eval::to_json_text(r) << '\n';
}

std::vector<vec2<float>> box(float x, float y, float w, float h) {
  return {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}};
}

void write_pair(std::ostream& out, const std::string& id, const std::string& family, const std::string& label,
                const std::vector<vec2<float>>& a, const std::vector<vec2<float>>& b) {
  for (const char* op : {"gjk.distance", "epa.penetration"}) {
    ojson r = ojson::object();
    r["id"] = id + (op[0] == 'g' ? "-distance" : "-penetration");
    r["op"] = op;
    r["label"] = label;
    r["family"] = family;
    r["a"] = polygon_json(a);
    r["b"] = polygon_json(b);
    out << eval::to_json_text(r) << '\n';
  }
}

struct box_extent {
  vec2<float> centre;
  float radius;
};

box_extent extent(const std::vector<vec2<float>>& v) {
  float lo_x = v[0].x, hi_x = v[0].x, lo_y = v[0].y, hi_y = v[0].y;
  for (const auto& p : v) {
    lo_x = std::min(lo_x, p.x);
    hi_x = std::max(hi_x, p.x);
    lo_y = std::min(lo_y, p.y);
    hi_y = std::max(hi_y, p.y);
  }
  return {{(lo_x + hi_x) / 2, (lo_y + hi_y) / 2}, std::max(hi_x - lo_x, hi_y - lo_y) / 2};
}

// Random convex pairs (3..8 vertices each, sizes 1e-3 .. 1e3, offsets up to
// what float carries), B's centre placed at 0 .. 1.5 (rA + rB) from A's in a
// random direction: about half overlap. Then the named adversarial pairs.
using pair_writer = void (*)(std::ostream&, const std::string&, const std::string&, const std::string&,
                             const std::vector<vec2<float>>&, const std::vector<vec2<float>>&);

void write_random_pairs(const cases_options& opts, std::size_t count, std::ostream& out, pair_writer write_pair) {
  verify::rng g(opts.seed);
  const auto small_convex = [&](double max_offset) {
    verify::polygon_case<float> c = verify::random_polygon<float>(g, verify::polygon_kind::convex, max_offset);
    while (c.vertices.size() > 8 || !strictly_convex(c.vertices))
      c = verify::random_polygon<float>(g, verify::polygon_kind::convex, max_offset);
    return c;
  };
  for (std::size_t i = 0; i < count;) {
    const verify::polygon_case<float> a = small_convex(1e6);
    verify::polygon_case<float> b = small_convex(0);
    const box_extent ea = extent(a.vertices), eb = extent(b.vertices);
    const double angle = 2 * 3.141592653589793 * verify::uniform01<double>(g);
    const double reach = 1.5 * verify::uniform01<double>(g) * (ea.radius + eb.radius);
    const double dx = ea.centre.x + reach * std::cos(angle) - eb.centre.x;
    const double dy = ea.centre.y + reach * std::sin(angle) - eb.centre.y;
    std::vector<vec2<float>> moved;
    for (const auto& p : b.vertices) moved.push_back({static_cast<float>(p.x + dx), static_cast<float>(p.y + dy)});
    if (!strictly_convex(moved)) continue;  // rounding at the new offset flattened a corner
    write_pair(out, "pair-" + std::to_string(i), "random-pair", "A: " + a.label + "; B: " + b.label, a.vertices, moved);
    ++i;
  }
}

// A shape of the shape families in the protocol's form (docs/eval-protocol.md section 2).
ojson case_shape_json(const case_shape& s) {
  const auto xy = [](vec2<float> p) { return ojson::array({static_cast<double>(p.x), static_cast<double>(p.y)}); };
  const double r = static_cast<double>(s.radius);
  ojson j = ojson::object();
  switch (s.form) {
    case case_shape::kind::polygon: return polygon_json(s.core);
    case case_shape::kind::rounded_polygon:
      j["vertices"] = polygon_json(s.core);
      j["radius"] = r;
      break;
    case case_shape::kind::circle:
      j["center"] = xy(s.core[0]);
      j["radius"] = r;
      break;
    case case_shape::kind::point: j["point"] = xy(s.core[0]); break;
    case case_shape::kind::segment: j["segment"] = polygon_json(s.core); break;
    case case_shape::kind::capsule:
      j["segment"] = polygon_json(s.core);
      j["radius"] = r;
      break;
  }
  return j;
}

void write_shape_pair(std::ostream& out, const shape_pair& p, const std::vector<const char*>& ops) {
  for (const char* op : ops) {
    const std::string op_name = op;
    ojson r = ojson::object();
    r["id"] = "pair-" + p.id + (op_name == "gjk.distance"      ? "-distance"
                                : op_name == "epa.penetration" ? "-penetration"
                                                               : "-manifold");
    r["op"] = op;
    r["label"] = p.label;
    r["family"] = p.family;
    r["a"] = case_shape_json(p.a);
    r["b"] = case_shape_json(p.b);
    out << eval::to_json_text(r) << '\n';
  }
}

bool circle_pair(const shape_pair& p) {
  return p.a.form == case_shape::kind::circle &&
         (p.b.form == case_shape::kind::circle || p.b.form == case_shape::kind::polygon);
}

void write_collision_set(const cases_options& opts, std::size_t count, std::ostream& out) {
  write_random_pairs(opts, count, out, write_pair);
  // Named pairs, their family "named-<what they test>".
  const auto named = [&](const std::string& id, const std::string& family, const std::string& label,
                         std::vector<vec2<float>> a, std::vector<vec2<float>> b) {
    write_pair(out, "pair-" + id, "named-" + family, label, a, b);
  };
  named("touching-faces", "touching", "unit boxes sharing a face exactly (libccd #25, #68)", box(0, 0, 1, 1), box(1, 0, 1, 1));
  named("touching-corners", "touching", "unit boxes sharing one corner", box(0, 0, 1, 1), box(1, 1, 1, 1));
  named("touching-offset-faces", "touching", "boxes of different sizes touching along part of a face", box(0, 0, 2, 1),
        box(0.5f, 1, 1, 1));
  named("shallow", "shallow", "boxes overlapping by 2^-10", box(0, 0, 1, 1), box(0, 1 - 0x1p-10f, 1, 1));
  named("identical", "identical", "a box and itself (two minimal directions)", box(0, 0, 1, 1), box(0, 0, 1, 1));
  named("far-1e5", "far", "unit boxes overlapping by 1/4 at 1e5 from the origin", box(1e5f, 1e5f, 1, 1),
        box(1e5f + 0.75f, 1e5f, 1, 1));
  named("size-ratio-1e4", "size-ratio", "a box of side 1e4 and a unit box sunk 1/2 into its top face", box(0, 0, 1e4f, 1e4f),
        box(5000, 1e4f - 0.5f, 1, 1));
  named("separated-parallel", "separated", "unit boxes 1/8 apart with parallel faces", box(0, 0, 1, 1), box(1.125f, 0, 1, 1));
  named("needle-across", "needle", "a needle 1000 x 1e-3 across a unit box", box(-500, 0.5f, 1000, 1e-3f), box(0, 0, 1, 1));
  for (const family_pair& p : pair_families(opts.seed)) write_pair(out, "pair-" + p.id, p.family, p.label, p.a, p.b);
  for (const shape_pair& p : shape_pair_families(opts.seed)) {
    if (p.distance_only) write_shape_pair(out, p, {"gjk.distance"});
    else write_shape_pair(out, p, {"gjk.distance", "epa.penetration"});
  }
}

void write_manifold_pair(std::ostream& out, const std::string& id, const std::string& family,
                         const std::string& label, const std::vector<vec2<float>>& a,
                         const std::vector<vec2<float>>& b) {
  ojson r = ojson::object();
  r["id"] = id + "-manifold";
  r["op"] = "contact.manifold";
  r["label"] = label;
  r["family"] = family;
  r["a"] = polygon_json(a);
  r["b"] = polygon_json(b);
  out << eval::to_json_text(r) << '\n';
}

// The random pairs of the collision set (the same seed gives the same
// pairs), then named pairs whose manifolds are known by hand
// (derivations/contact.md, D-CONTACT-5): touching, shallow, deep,
// face-face, vertex-face, speculative, far from the origin.
void write_manifold_set(const cases_options& opts, std::size_t count, std::ostream& out) {
  write_random_pairs(opts, count, out, write_manifold_pair);
  const auto named = [&](const std::string& id, const std::string& family, const std::string& label,
                         std::vector<vec2<float>> a, std::vector<vec2<float>> b) {
    write_manifold_pair(out, "pair-" + id, "named-" + family, label, a, b);
  };
  const std::vector<vec2<float>> diamond = {{2, 1.75f}, {3, 2.75f}, {2, 3.75f}, {1, 2.75f}};
  named("touching-faces", "touching", "unit boxes sharing a face exactly", box(0, 0, 1, 1), box(1, 0, 1, 1));
  named("touching-offset-faces", "touching", "boxes of different sizes touching along part of a face", box(0, 0, 2, 1),
        box(0.5f, 1, 1, 1));
  named("shallow-face", "shallow", "boxes overlapping by 2^-10, face on face", box(0, 0, 1, 1), box(0, 1 - 0x1p-10f, 1, 1));
  named("deep-face", "deep", "face on face 1/2 deep: points (1, 3/2), (4, 3/2)", box(0, 0, 4, 2), box(1, 1.5f, 5, 2));
  named("vertex-face", "vertex-face", "a diamond's vertex 1/4 under a box's top face", box(0, 0, 4, 2), diamond);
  named("face-vertex", "vertex-face", "the same, shapes swapped (reference face on b)", diamond, box(0, 0, 4, 2));
  named("tie", "tie", "squares overlapping by 1 along x and along y (two minimal normals)", box(0, 0, 2, 2),
        box(1, 1, 2, 2));
  named("speculative-1/64", "speculative", "unit boxes 1/64 apart (within Box2D's skins, 0.02)", box(0, 0, 1, 1),
        box(1.015625f, 0, 1, 1));
  named("separated-1/8", "separated", "unit boxes 1/8 apart (beyond Box2D's skins)", box(0, 0, 1, 1), box(1.125f, 0, 1, 1));
  named("tilted-face", "tilted", "a box tilted by about 2^-8 resting 1/8 deep on a wide box", box(0, 0, 8, 1),
        {{2, 0.875f}, {4, 0.8828125f}, {3.9921875f, 2.8828125f}, {1.9921875f, 2.875f}});
  named("far-1e4", "far", "face on face 1/4 deep at 1e4 from the origin", box(1e4f, 1e4f, 2, 1),
        box(1e4f + 0.5f, 1e4f + 0.75f, 1, 1));
  named("size-ratio-1e3", "size-ratio", "a unit box sunk 1/2 into the top face of a box of side 1e3", box(0, 0, 1e3f, 1e3f),
        box(500, 1e3f - 0.5f, 1, 1));
  for (const family_pair& p : pair_families(opts.seed))
    write_manifold_pair(out, "pair-" + p.id, p.family, p.label, p.a, p.b);
  // The circle pairs: the first two of each kind along the axes, and every turned one.
  for (const shape_pair& p : shape_pair_families(opts.seed))
    if (circle_pair(p) && (p.rotated || p.id.back() == '0' || p.id.back() == '1'))
      write_shape_pair(out, p, {"contact.manifold"});
}

}  // namespace

int run_cases(const cases_options& opts, std::ostream& out) {
  const std::size_t count = opts.count.value_or(default_count(opts.set));
  if (opts.set == "collision") {
    write_collision_set(opts, count, out);
    return 0;
  }
  if (opts.set == "dynamics") {
    write_dynamics_set(opts.seed, count, out);
    return 0;
  }
  if (opts.set == "scenes") {
    write_scene_set(out);
    return 0;
  }
  if (opts.set == "manifold") {
    write_manifold_set(opts, count, out);
    return 0;
  }
  // The corpus cycles through its kinds (polygon_corpus): family random-convex, -star, -comb, -needle.
  const auto corpus = verify::polygon_corpus<float>(opts.seed, count);
  const char* corpus_family[] = {"random-convex", "random-star", "random-comb", "random-needle"};
  for (std::size_t i = 0; i < corpus.size(); ++i)
    write_mass_case(out, "mass-" + std::to_string(i), corpus_family[i % 4], corpus[i].label, corpus[i].vertices);
  // Convex polygons of 3..8 vertices, the only ones Box2D takes: the random
  // corpus has up to 64 vertices, so draw until the count fits.
  verify::rng g(opts.seed + 1);
  for (std::size_t i = 0; i < count / 2; ++i) {
    verify::polygon_case<float> c = verify::random_polygon<float>(g, verify::polygon_kind::convex);
    while (c.vertices.size() > 8) c = verify::random_polygon<float>(g, verify::polygon_kind::convex);
    write_mass_case(out, "mass-small-convex-" + std::to_string(i), "random-convex-max-8", c.label, c.vertices);
  }
  for (int e = 0; e <= 6; ++e) {
    const float offset = static_cast<float>(std::pow(10.0, e));
    write_mass_case(out, "mass-far-box-1e" + std::to_string(e), "unit-box-offset", "unit box at offset 1e" + std::to_string(e),
                    box(offset, offset, 1, 1));
  }
  write_mass_case(out, "mass-tiny-box", "below-weld-distance", "box of side 1e-3, below Box2D's weld distance 2.5e-3",
                  box(0, 0, 1e-3f, 1e-3f));
  std::vector<vec2<float>> octagon, nonagon;
  for (int k = 0; k < 8; ++k) octagon.push_back({static_cast<float>(std::cos(k * 0.785398163397448)),
                                                 static_cast<float>(std::sin(k * 0.785398163397448))});
  for (int k = 0; k < 9; ++k) nonagon.push_back({static_cast<float>(std::cos(k * 0.698131700797732)),
                                                 static_cast<float>(std::sin(k * 0.698131700797732))});
  write_mass_case(out, "mass-octagon", "max-vertices", "8 vertices (Box2D's maximum)", octagon);
  write_mass_case(out, "mass-nonagon", "max-vertices", "9 vertices (one more than Box2D takes)", nonagon);
  for (const family_polygon& p : mass_families(opts.seed))
    write_mass_case(out, "mass-" + p.id, p.family, p.label, p.vertices);
  return 0;
}

}  // namespace rigidref::tools
