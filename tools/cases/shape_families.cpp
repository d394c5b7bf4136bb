// The shape families of shape_families.hpp. Every pair is built along a
// line: the lower shape lies in y <= E with its top feature on y = E, the
// upper one in y >= E - depth with its bottom feature on that line, both
// features over the same x (so the pair touches when depth is 0, overlaps by
// about depth when it is positive, and is apart by -depth when negative);
// then the pair is turned (A above or below, along y or along x). The line
// level, the contact abscissa and every radius lie on a grid q (a power of
// two, 2^-12 of the pair's size), so that the level of a rounded shape's
// core, E - r, is exact in float: touching pairs touch exactly as written.
// The turned pairs are built the same way, then turned about the origin by
// a random angle and rounded to float once; they are never touching, only
// separated or overlapping with a margin far above that rounding.
#include "cases/shape_families.hpp"
#include "cases/angle_off_axes.hpp"
#include "cases/strictly_convex.hpp"

#include "rigidref/shape_queries.hpp"
#include "rigidref/verify/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <utility>

namespace rigidref::tools {

namespace {

using verify::rng;
using kind = case_shape::kind;
constexpr double pi = 3.141592653589793;

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

double uniform(rng& g, double lo, double hi) { return lo + (hi - lo) * verify::uniform01<double>(g); }
double log_uniform(rng& g, double lo_exp, double hi_exp) { return verify::log_uniform<double>(g, lo_exp, hi_exp); }

// What is drawn for one shape before it is placed (so that its height, which
// bounds a deep pair's depth, is known first).
struct spec {
  kind form = kind::polygon;
  double half_width = 1;  // of a polygon's top face or arc, of a flat segment core
  double height = 1;      // of a polygon core, of a tilted segment core
  double shift = 0;       // the top face's centre off the contact abscissa, in half widths
  double tilt_dx = 0;     // a tilted segment's lower end, off the contact abscissa
  bool flat = true;       // a face (a flat segment) on top, else an apex (a tilted segment's end)
  double radius = 0;
  int n = 4;
};

const char* kind_name(kind k) {
  switch (k) {
    case kind::polygon: return "polygon";
    case kind::rounded_polygon: return "rounded polygon";
    case kind::circle: return "circle";
    case kind::point: return "point";
    case kind::segment: return "segment";
    case kind::capsule: return "capsule";
  }
  return "?";
}

double on_grid(double x, double q) { return std::round(x / q) * q; }

spec draw_spec(rng& g, kind form, double size, double q) {
  spec s;
  s.form = form;
  s.half_width = size / 2 * uniform(g, 0.4, 1);
  s.height = s.half_width * log_uniform(g, -1, 0);
  s.shift = uniform(g, -0.7, 0.7);
  s.tilt_dx = s.half_width * uniform(g, -1, 1);
  s.flat = verify::uniform01<double>(g) < 0.5;
  s.n = verify::uniform_int(g, 3, 7);
  if (form == kind::circle) s.radius = size / 2 * uniform(g, 0.5, 1);
  else if (form == kind::capsule) s.radius = size * uniform(g, 0.05, 0.25);
  else if (form == kind::rounded_polygon) s.radius = size * log_uniform(g, -2, -1);
  s.radius = s.radius > 0 ? std::max(q, on_grid(s.radius, q)) : 0.0;
  return s;
}

// The vertical extent of the shape (0 for a point and a flat segment).
double height_of(const spec& s) {
  const double core = s.form == kind::polygon || s.form == kind::rounded_polygon ? (s.flat ? 1.0 : 1.3) * s.height
                      : s.form == kind::segment || s.form == kind::capsule     ? (s.flat ? 0.0 : s.height)
                                                                               : 0.0;
  return core + 2 * s.radius;
}

std::string describe(const spec& s) {
  std::string d = kind_name(s.form);
  if (s.form == kind::polygon || s.form == kind::rounded_polygon)
    d += " n=" + std::to_string(s.n) + (s.flat ? " (face)" : " (vertex)");
  if (s.form == kind::segment || s.form == kind::capsule) d += s.flat ? " (lying flat)" : " (end first)";
  if (s.radius > 0) d += fmt(" r=%.3g", s.radius);
  return d;
}

// A polygon below y = top: its top face over x_c (or its apex at x_c).
polygon_f polygon_below(rng& g, const spec& s, double xc, float top) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    polygon_f v;
    const double mid = xc + s.shift * s.half_width, a = s.half_width;
    if (s.flat) {  // (left, top), the arc below from left to right, (right, top): counter-clockwise
      v.push_back({static_cast<float>(mid - a), top});
      for (int i = 1; i <= s.n - 2; ++i) {
        const double t = pi + pi * (i + uniform(g, -0.3, 0.3)) / (s.n - 1);
        v.push_back({static_cast<float>(mid + a * std::cos(t)), static_cast<float>(top + s.height * std::sin(t))});
      }
      v.push_back({static_cast<float>(mid + a), top});
    } else {  // the arc from left to right, both ends on y = base, then the apex (xc, top)
      const float base = static_cast<float>(top - 0.3 * s.height);
      v.push_back({static_cast<float>(mid - a), base});
      for (int i = 1; i <= s.n - 3; ++i) {
        const double t = pi + pi * (i + uniform(g, -0.3, 0.3)) / (s.n - 2);
        v.push_back({static_cast<float>(mid + a * std::cos(t)), static_cast<float>(base + s.height * std::sin(t))});
      }
      v.push_back({static_cast<float>(mid + a), base});
      v.push_back({static_cast<float>(xc), top});
    }
    if (strictly_convex(v)) return v;
  }
  throw std::logic_error("cases: no strictly convex float polygon on this line");
}

// The shape of `s` below y = top, touching it over x = xc (a float on the
// grid, as `top` when the pair touches).
case_shape shape_below(rng& g, const spec& s, float xc, float top) {
  case_shape c;
  c.form = s.form;
  c.radius = static_cast<float>(s.radius);
  // The core's top: exact when top and radius are on the grid (top - r is then a float).
  const float core_top = static_cast<float>(static_cast<double>(top) - s.radius);
  switch (s.form) {
    case kind::polygon:
    case kind::rounded_polygon: c.core = polygon_below(g, s, xc, core_top); break;
    case kind::circle:
    case kind::point: c.core = {{xc, core_top}}; break;
    case kind::segment:
    case kind::capsule:
      if (s.flat) {
        const double mid = xc + s.shift * s.half_width;
        c.core = {{static_cast<float>(mid - s.half_width), core_top}, {static_cast<float>(mid + s.half_width), core_top}};
      } else {
        c.core = {{xc, core_top}, {static_cast<float>(xc + s.tilt_dx), static_cast<float>(core_top - s.height)}};
      }
      break;
  }
  return c;
}

// Reflections, exact in float: y -> -y, and x <-> y. Each reverses a
// polygon's orientation, so its order is reversed to stay counter-clockwise.
case_shape mirror_y(case_shape c) {
  for (auto& p : c.core) p.y = -p.y;
  if (c.form == kind::polygon || c.form == kind::rounded_polygon) std::reverse(c.core.begin(), c.core.end());
  return c;
}

case_shape swap_xy(case_shape c) {
  for (auto& p : c.core) std::swap(p.x, p.y);
  if (c.form == kind::polygon || c.form == kind::rounded_polygon) std::reverse(c.core.begin(), c.core.end());
  return c;
}

float ulp_of(float x) {
  const float m = std::fabs(x);
  return std::nextafter(m, std::numeric_limits<float>::infinity()) - m;
}

enum class depth_kind { separated, touching, shallow, deep };
const char* depth_name(depth_kind d) {
  switch (d) {
    case depth_kind::separated: return "separated";
    case depth_kind::touching: return "touching";
    case depth_kind::shallow: return "shallow";
    case depth_kind::deep: return "deep";
  }
  return "?";
}

// A pair of (form_a, form_b) along y = E, before it is turned: the lower
// shape below the line, the upper one above E_upper = E - depth (A the lower
// when a_below). The line lies up to 10^max_offset_exp sizes from the origin.
// A separated pair's gap is 10^-3 .. 10^-0.5 sizes, or 0.02 .. 0.2 sizes when
// `wide_gap` (the turned pairs, whose gap must stay far above the rounding of
// the turned coordinates).
struct line_layout {
  double size = 0, offset = 0;
  float E = 0, E_upper = 0;
  spec sa, sb;
  case_shape low, up;
};

line_layout along_line(rng& g, kind form_a, kind form_b, depth_kind dk, bool a_below, int max_offset_exp,
                       bool wide_gap) {
  line_layout L;
  L.size = log_uniform(g, -2, 2);
  const double size = L.size;
  const double q = std::ldexp(1.0, static_cast<int>(std::floor(std::log2(size))) - 12);
  L.offset = size * std::pow(10.0, verify::uniform_int(g, 0, max_offset_exp));
  const float xc = static_cast<float>(on_grid(L.offset * uniform(g, -1, 1), q));
  L.E = static_cast<float>(on_grid(L.offset * uniform(g, -1, 1), q));
  L.sa = draw_spec(g, form_a, size, q);
  L.sb = draw_spec(g, form_b, size * log_uniform(g, -0.5, 0.5), q);
  if (form_a == kind::segment && form_b == kind::segment) {  // one flat, one end first: deep pairs cross
    L.sa.flat = true;
    L.sb.flat = false;
  }
  const spec& lower = a_below ? L.sa : L.sb;
  const spec& upper = a_below ? L.sb : L.sa;
  double depth = 0;
  if (dk == depth_kind::separated) depth = wide_gap ? -size * uniform(g, 0.02, 0.2) : -size * log_uniform(g, -3, -0.5);
  if (dk == depth_kind::shallow) depth = std::max(size * std::exp2(-uniform(g, 8, 14)), 4.0 * ulp_of(L.E));
  if (dk == depth_kind::deep) {
    double h = std::numeric_limits<double>::infinity();
    for (const spec* s : {&lower, &upper})
      if (height_of(*s) > 0) h = std::min(h, height_of(*s));
    depth = uniform(g, 0.2, 0.5) * h;
  }
  L.E_upper = dk == depth_kind::touching ? L.E : static_cast<float>(L.E - depth);
  L.low = shape_below(g, lower, xc, L.E);
  L.up = mirror_y(shape_below(g, upper, xc, -L.E_upper));
  return L;
}

// One pair of the family (form_a, form_b); `turn` 0..3: A below or above B,
// contact line along y = E or x = E.
shape_pair line_pair(rng& g, const std::string& family, kind form_a, kind form_b, depth_kind dk, int index, int turn) {
  const bool a_below = turn % 2 == 0, along_x = turn >= 2;
  const line_layout L = along_line(g, form_a, form_b, dk, a_below, 3, false);
  case_shape low = L.low, up = L.up;
  if (along_x) {
    low = swap_xy(low);
    up = swap_xy(up);
  }
  shape_pair p;
  p.id = family + "-" + depth_name(dk) + "-" + std::to_string(index);
  p.family = family;
  p.a = a_below ? low : up;
  p.b = a_below ? up : low;
  p.label = family + ": " + depth_name(dk) + ", A " + describe(L.sa) + (a_below ? " below" : " above") + " B " +
            describe(L.sb) + (along_x ? ", along x = " : ", along y = ") + fmt("%.9g", L.E) +
            fmt(", depth about %.3g", static_cast<double>(L.E) - static_cast<double>(L.E_upper)) +
            fmt(", size %.3g", L.size) + fmt(", offset %.3g", L.offset);
  return p;
}

// The shape turned by `angle` about the origin, rounded to float once.
// Turning keeps a polygon counter-clockwise; rounding may flatten it, which
// the caller checks.
case_shape turned(case_shape c, double angle) {
  const double co = std::cos(angle), si = std::sin(angle);
  for (auto& p : c.core) {
    const double x = p.x, y = p.y;
    p = {static_cast<float>(co * x - si * y), static_cast<float>(si * x + co * y)};
  }
  return c;
}

bool well_formed(const case_shape& c) {
  if (c.form == kind::polygon || c.form == kind::rounded_polygon) return strictly_convex(c.core);
  if (c.form == kind::segment || c.form == kind::capsule) return !(c.core[0] == c.core[1]);
  return true;
}

// Signed distance of the pair (negative: the penetration depth), by
// rigidref's own epa_penetration in double.
double signed_distance(const shape_pair& p) {
  const auto shape_of = [](const case_shape& c) {
    convex_shape<double> s;
    for (const auto& v : c.core) s.core.push_back({v.x, v.y});
    s.radius = c.radius;
    return s;
  };
  const epa_result<double> r = epa_penetration<double>(shape_of(p.a), shape_of(p.b));
  return r.intersecting ? -r.depth : r.distance;
}

float largest_coordinate(const shape_pair& p) {
  float m = 0;
  for (const case_shape* c : {&p.a, &p.b})
    for (const auto& v : c->core) m = std::max({m, std::fabs(v.x), std::fabs(v.y)});
  return m;
}

// A pair of the family turned by a random angle: separated by 0.02 .. 0.2
// of its size (`apart`) or overlapping as deep as the deep pairs, within 10
// sizes of the origin. Redrawn until the margin from touching, measured on
// the float shapes as written, is at least 1 % of the size and 2^12 ulps of
// the largest coordinate, so that every engine's rounding of the inputs
// leaves the overlap flag unambiguous.
shape_pair rotated_pair(rng& g, const std::string& family, kind form_a, kind form_b, bool apart, int index) {
  const bool a_below = index % 2 == 0;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const line_layout L =
        along_line(g, form_a, form_b, apart ? depth_kind::separated : depth_kind::deep, a_below, 1, true);
    const double angle = angle_off_axes(g);
    const case_shape low = turned(L.low, angle), up = turned(L.up, angle);
    if (!well_formed(low) || !well_formed(up)) continue;
    shape_pair p;
    p.id = family + "-rotated-" + (apart ? "separated-" : "overlapping-") + std::to_string(index);
    p.family = family;
    p.rotated = true;
    p.a = a_below ? low : up;
    p.b = a_below ? up : low;
    const double margin = std::max(0.01 * L.size, 4096.0 * ulp_of(largest_coordinate(p)));
    const double d = signed_distance(p);
    if (apart ? d < margin : d > -margin) continue;
    p.label = family + ": turned by " + fmt("%.2f degrees", angle * 180 / pi) + ", " +
              (apart ? fmt("separated by %.3g", d) : fmt("overlapping by %.3g", -d)) + ", A " + describe(L.sa) +
              " B " + describe(L.sb) + fmt(", size %.3g", L.size) + fmt(", offset %.3g", L.offset);
    return p;
  }
  throw std::logic_error("cases: no turned pair with a clear margin");
}

// Box2D v3's test/test_distance.c, ShapeDistanceShortEdgeTest (commit
// 3d910d2a): a plank 1 long and 2 * 0.0016 thick centred at the origin, a
// point a linear slop (0.005) beyond the middle of its short end face; the
// test records that b2ShapeDistance declares the pair overlapping once that
// face is shorter than about 3.5 mm. Then the same with end faces from 0.1
// down to 1e-5.
shape_pair plank(const std::string& id, const std::string& what, float half_thickness) {
  shape_pair p;
  p.id = id;
  p.family = "plank";
  p.a.core = {{-0.5f, -half_thickness}, {0.5f, -half_thickness}, {0.5f, half_thickness}, {-0.5f, half_thickness}};
  p.b.form = kind::point;
  p.b.core = {{0.5f + 0.005f, 0.0f}};
  p.distance_only = true;
  p.label = "plank: " + what + fmt(", end face %.9g", 2.0 * half_thickness) + ", a point 0.005 off its middle";
  return p;
}

std::string family_name(kind a, kind b) {
  std::string family = std::string(kind_name(a)) + "-" + kind_name(b);
  std::replace(family.begin(), family.end(), ' ', '-');
  return family;
}

}  // namespace

std::vector<shape_pair> shape_pair_families(std::uint64_t seed) {
  rng g(seed + 5);
  std::vector<shape_pair> out;
  const std::pair<kind, kind> families[] = {
      {kind::circle, kind::polygon},  {kind::circle, kind::circle},   {kind::point, kind::polygon},
      {kind::segment, kind::polygon}, {kind::capsule, kind::polygon}, {kind::capsule, kind::capsule},
      {kind::segment, kind::segment}, {kind::rounded_polygon, kind::polygon}};
  for (const auto& [a, b] : families) {
    const std::string family = family_name(a, b);
    for (const depth_kind dk : {depth_kind::separated, depth_kind::touching, depth_kind::shallow, depth_kind::deep})
      for (int i = 0; i < 4; ++i) out.push_back(line_pair(g, family, a, b, dk, i, i));
  }
  out.push_back(plank("plank-box2d-v3", "Box2D v3's ShapeDistanceShortEdgeTest", 0.0016f));
  const double ends[] = {0.1, 0.05, 0.02, 0.01, 0.005, 0.004, 0.003, 0.002, 0.001, 5e-4, 2e-4, 1e-4, 5e-5, 2e-5, 1e-5};
  for (std::size_t i = 0; i < std::size(ends); ++i)
    out.push_back(plank("plank-" + std::to_string(i), "sweep", static_cast<float>(ends[i] / 2)));
  // The turned pairs come last, from their own generator: the pairs above
  // are those of the sets before them, line for line.
  rng turn_g(seed + 6);
  for (const auto& [a, b] : families)
    for (const bool apart : {true, false})
      for (int i = 0; i < 4; ++i) out.push_back(rotated_pair(turn_g, family_name(a, b), a, b, apart, i));
  return out;
}

}  // namespace rigidref::tools
