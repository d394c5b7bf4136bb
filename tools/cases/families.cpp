// The case families of families.hpp. Every vertex is rounded to float once,
// from a double computation, and every polygon is checked strictly convex as
// written (exact orientation test); a draw that rounding flattened is drawn
// again. The polygons are counter-clockwise, so that an engine refusing
// clockwise input (p2) answers the family: winding is covered by the random
// cases before it.
#include "cases/families.hpp"
#include "cases/strictly_convex.hpp"

#include "rigidref/verify/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace rigidref::tools {

namespace {

using verify::rng;
constexpr double two_pi = 6.283185307179586;
constexpr double pi = two_pi / 2;

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

double log_uniform(rng& g, double lo_exp, double hi_exp) { return verify::log_uniform<double>(g, lo_exp, hi_exp); }
double uniform(rng& g, double lo, double hi) { return lo + (hi - lo) * verify::uniform01<double>(g); }

struct shape {
  polygon_f v;
  vec2<double> centre;  // of the drawn ellipse or rectangle, before rounding
  double radius;        // half the drawn extent
};

// n points on an ellipse of diameter `size` (axes 1 : aspect), at stratified
// angles (no edge shorter than a fifth of the average), rotated by `angle`,
// centred at c, rounded to float.
polygon_f ellipse_polygon(rng& g, int n, double size, double aspect, double angle, vec2<double> c) {
  const double phase = two_pi * verify::uniform01<double>(g);
  polygon_f v;
  for (int i = 0; i < n; ++i) {
    const double t = phase + two_pi * (i + 0.8 * verify::uniform01<double>(g)) / n;
    const double x = size / 2 * std::cos(t), y = size / 2 * aspect * std::sin(t);
    v.push_back({static_cast<float>(c.x + x * std::cos(angle) - y * std::sin(angle)),
                 static_cast<float>(c.y + x * std::sin(angle) + y * std::cos(angle))});
  }
  return v;
}

// A convex polygon of n vertices (fewer if rounding at the centre c keeps
// flattening a corner: at 1e6 sizes from the origin a float carries only a
// few ulps across the shape).
shape convex_at(rng& g, int n, double size, vec2<double> c) {
  for (int attempt = 0;; ++attempt) {
    if (attempt > 0 && attempt % 20 == 0 && n > 3) --n;
    const double aspect = log_uniform(g, -1, 0);
    polygon_f v = ellipse_polygon(g, n, size, aspect, two_pi * verify::uniform01<double>(g), c);
    if (strictly_convex(v)) return {v, c, size / 2};
    if (attempt > 1000) throw std::logic_error("cases: no strictly convex float polygon at this offset");
  }
}

vec2<double> direction(rng& g) {
  const double t = two_pi * verify::uniform01<double>(g);
  return {std::cos(t), std::sin(t)};
}

// A rectangle length x length/aspect, rotated by a random angle about c;
// unrotated if rounding keeps breaking it.
shape needle_at(rng& g, double length, double aspect, vec2<double> c, bool triangle) {
  const double w = length / aspect;
  for (int attempt = 0;; ++attempt) {
    const double angle = attempt < 50 ? two_pi * verify::uniform01<double>(g) : 0.0;
    const double ca = std::cos(angle), sa = std::sin(angle);
    std::vector<std::pair<double, double>> local;
    if (triangle) local = {{-length / 2, -w / 2}, {length / 2, 0}, {-length / 2, w / 2}};
    else local = {{-length / 2, -w / 2}, {length / 2, -w / 2}, {length / 2, w / 2}, {-length / 2, w / 2}};
    polygon_f v;
    for (const auto& [x, y] : local)
      v.push_back({static_cast<float>(c.x + x * ca - y * sa), static_cast<float>(c.y + x * sa + y * ca)});
    if (strictly_convex(v) || attempt > 50) return {v, c, length / 2};
  }
}

std::string convex_label(const shape& s, double size) {
  return "convex n=" + std::to_string(s.v.size()) + fmt(" size=%.3g", size) +
         fmt(" offset=%.3g", std::hypot(s.centre.x, s.centre.y));
}

// B's centre at reach x (rA + rB) from A's, in a random direction (as the
// random pairs of cases.cpp).
vec2<double> beside(rng& g, const shape& a, double rb, double reach_lo, double reach_hi) {
  const vec2<double> d = direction(g);
  const double reach = uniform(g, reach_lo, reach_hi) * (a.radius + rb);
  return {a.centre.x + reach * d.x, a.centre.y + reach * d.y};
}

// ---- contact along a line, exactly: A below y = Y, B above ----------------------

// A cap on the side `side` (-1 below, +1 above) of y = Y: either a face on
// the line from x0 - r to x0 + r (the half ellipse), or a single vertex on it
// at x0 (an apex over the half ellipse lowered by t). The contact vertices
// have y = Y exactly; the others are rounded and lie strictly on their side.
polygon_f cap(rng& g, int n, double x0, float Y, double r, double h, bool apex, int side, double apex_x) {
  const double base = apex ? Y - 0.3 * h : Y;  // built below the line, mirrored after
  polygon_f v;
  // Lower half ellipse, left to right (counter-clockwise below the line).
  for (int i = 0; i < n; ++i) {
    const double t = pi + pi * (i == 0 ? 0.0 : i == n - 1 ? 1.0 : (i + 0.8 * verify::uniform01<double>(g) - 0.4) / (n - 1));
    const double x = x0 + r * std::cos(t), y = base + h * std::sin(t);
    v.push_back({static_cast<float>(x), i == 0 || i == n - 1 ? static_cast<float>(base) : static_cast<float>(y)});
  }
  if (!apex) {
    v.front().y = Y;
    v.back().y = Y;
  } else {
    v.push_back({static_cast<float>(apex_x), Y});
  }
  if (side > 0) {  // mirror to above the line: y -> 2Y - y, order reversed to stay counter-clockwise
    for (auto& p : v) p.y = p.y == Y ? Y : static_cast<float>(2.0 * Y - p.y);
    std::reverse(v.begin(), v.end());
  }
  return v;
}

polygon_f swap_xy(polygon_f v) {
  for (auto& p : v) std::swap(p.x, p.y);
  std::reverse(v.begin(), v.end());
  return v;
}

enum class contact_kind { face_face, vertex_face, vertex_vertex };

// A pair in contact along y = Y (or x = Y, swapped): touching when depth is
// 0, else B lowered by `depth` (rounded to float: the label gives the depth
// as written). Sizes a and b, the line at `offset` from the origin.
family_pair line_contact(rng& g, const std::string& id, const std::string& family, contact_kind kind, double size_a,
                         double size_b, double offset, double depth, bool vertical) {
  for (;;) {
    const double x0 = offset * uniform(g, -1, 1);
    const float Y = static_cast<float>(offset * uniform(g, -1, 1));
    const float YB = static_cast<float>(Y - depth);
    const int na = verify::uniform_int(g, 3, 8), nb = verify::uniform_int(g, 3, 8);
    const double ra = size_a / 2, rb = size_b / 2;
    const double apex_x = x0 + uniform(g, -0.5, 0.5) * ra;
    // An apex cap has one vertex more than its arc: at most 8 in all, as the other families of pairs.
    const bool apex_a = kind == contact_kind::vertex_vertex, apex_b = kind != contact_kind::face_face;
    polygon_f a = cap(g, apex_a ? na - 1 : na, x0, Y, ra, ra * log_uniform(g, -1, 0), apex_a, -1, apex_x);
    const double xb = kind == contact_kind::face_face ? x0 + uniform(g, -0.9, 0.9) * (ra + rb) : apex_x;
    polygon_f b = cap(g, apex_b ? nb - 1 : nb, xb, YB, rb, rb * log_uniform(g, -1, 0), apex_b, +1, xb);
    if (vertical) {
      a = swap_xy(a);
      b = swap_xy(b);
    }
    if (!strictly_convex(a) || !strictly_convex(b)) continue;
    const char* what = kind == contact_kind::face_face     ? "face on face"
                       : kind == contact_kind::vertex_face ? "B's vertex on A's face"
                                                           : "vertex on vertex";
    const double written = static_cast<double>(Y) - static_cast<double>(YB);
    std::string label = family + ": " + what + (vertical ? " along x = " : " along y = ") + fmt("%.9g", Y) +
                        fmt(", depth %.3g", written) + fmt(", sizes %.3g", size_a) + fmt(" and %.3g", size_b);
    return {id, family, label, a, b};
  }
}

}  // namespace

std::vector<family_polygon> mass_families(std::uint64_t seed) {
  rng g(seed + 2);
  std::vector<family_polygon> out;
  const auto add = [&](const std::string& family, int i, const std::string& what, polygon_f v) {
    out.push_back({family + "-" + std::to_string(i), family, family + ": " + what, std::move(v)});
  };
  for (int i = 0; i < 40; ++i) {  // 13 .. 64 vertices, at the origin
    const int n = 13 + i * 51 / 39;
    const double size = log_uniform(g, -1, 1);
    const shape s = convex_at(g, n, size, {0, 0});
    add("many-vertices", i, convex_label(s, size), s.v);
  }
  for (int k = 0; k <= 6; ++k)  // 1 .. 1e6 sizes from the origin
    for (int j = 0; j < 6; ++j) {
      const double size = log_uniform(g, -2, 2);
      const vec2<double> d = direction(g);
      const double off = size * std::pow(10.0, k);
      const shape s = convex_at(g, verify::uniform_int(g, 3, 8), size, {off * d.x, off * d.y});
      add("offset-1e" + std::to_string(k), j, convex_label(s, size), s.v);
    }
  for (int i = 0; i < 20; ++i) {  // 1e-6 .. 1e-3, within 10 sizes of the origin
    const double size = log_uniform(g, -6, -3);
    const vec2<double> d = direction(g);
    const double off = size * uniform(g, 0, 10);
    const shape s = convex_at(g, verify::uniform_int(g, 3, 8), size, {off * d.x, off * d.y});
    add("tiny", i, convex_label(s, size), s.v);
  }
  for (int i = 0; i < 20; ++i) {  // 1e3 .. 1e6
    const double size = log_uniform(g, 3, 6);
    const vec2<double> d = direction(g);
    const double off = size * uniform(g, 0, 10);
    const shape s = convex_at(g, verify::uniform_int(g, 3, 8), size, {off * d.x, off * d.y});
    add("huge", i, convex_label(s, size), s.v);
  }
  for (int i = 0; i < 30; ++i) {  // aspect 1e2 .. 1e6, length 1e-2 .. 1e3, up to 100 lengths out
    const double length = log_uniform(g, -2, 3), aspect = log_uniform(g, 2, 6);
    const vec2<double> d = direction(g);
    const double off = i % 2 == 0 ? 0.0 : length * log_uniform(g, 0, 2);
    const shape s = needle_at(g, length, aspect, {off * d.x, off * d.y}, i % 3 == 2);
    add("needle", i, (i % 3 == 2 ? "triangle" : "rectangle") + fmt(" length=%.3g", length) +
                         fmt(" aspect=%.3g", aspect) + fmt(" offset=%.3g", off),
        s.v);
  }
  return out;
}

std::vector<family_pair> pair_families(std::uint64_t seed) {
  rng g(seed + 3);
  std::vector<family_pair> out;
  // Random placement, about half overlapping, of two convex polygons.
  // `family` is the id's stem (the case's family); `title` begins the label.
  const auto placed = [&](const std::string& family, int k, const std::string& title, int na, int nb, double size_a,
                          double size_b, vec2<double> centre_a, double reach_lo, double reach_hi) {
    const shape a = convex_at(g, na, size_a, centre_a);
    const vec2<double> cb = beside(g, a, size_b / 2, reach_lo, reach_hi);
    const shape b = convex_at(g, nb, size_b, cb);
    out.push_back({family + "-" + std::to_string(k), family,
                   title + ": A: " + convex_label(a, size_a) + "; B: " + convex_label(b, size_b), a.v, b.v});
  };
  for (int i = 0; i < 24; ++i) {  // 13 .. 64 vertices (one of the two only, every third pair)
    const int na = verify::uniform_int(g, 13, 64);
    const int nb = i % 3 == 2 ? verify::uniform_int(g, 3, 8) : verify::uniform_int(g, 13, 64);
    placed("many-vertices", i, "many vertices", na, nb, log_uniform(g, -1, 1),
           log_uniform(g, -1, 1), {0, 0}, 0, 1.5);
  }
  for (int k = 0; k <= 6; ++k)
    for (int j = 0; j < 3; ++j) {
      const double size_a = log_uniform(g, -1, 1), size_b = log_uniform(g, -1, 1);
      const vec2<double> d = direction(g);
      const double off = size_a * std::pow(10.0, k);
      placed("offset-1e" + std::to_string(k), j, "offset 1e" + std::to_string(k) + " sizes",
             verify::uniform_int(g, 3, 8), verify::uniform_int(g, 3, 8), size_a, size_b, {off * d.x, off * d.y}, 0,
             1.5);
    }
  for (int i = 0; i < 10; ++i)
    placed("tiny", i, "tiny", verify::uniform_int(g, 3, 8), verify::uniform_int(g, 3, 8),
           log_uniform(g, -5, -3), log_uniform(g, -5, -3), {0, 0}, 0, 1.5);
  for (int i = 0; i < 10; ++i)
    placed("huge", i, "huge", verify::uniform_int(g, 3, 8), verify::uniform_int(g, 3, 8),
           log_uniform(g, 3, 5), log_uniform(g, 3, 5), {0, 0}, 0, 1.5);
  for (int i = 0; i < 15; ++i) {  // exactly touching: face, vertex on face, vertex on vertex
    const double size = log_uniform(g, -2, 2);
    out.push_back(line_contact(g, "touching-" + std::to_string(i), "touching", static_cast<contact_kind>(i % 3),
                               size, size * log_uniform(g, -1, 1), size * log_uniform(g, -1, 3), 0, i % 2 == 1));
  }
  for (int i = 0; i < 15; ++i) {  // 2^-8 .. 2^-20 sizes deep, face on face or vertex on face
    const double size = log_uniform(g, -2, 2);
    const double depth = size * std::ldexp(1.0, -8 - (i * 12) / 14);
    out.push_back(line_contact(g, "shallow-" + std::to_string(i), "shallow", static_cast<contact_kind>(i % 2), size,
                               size * log_uniform(g, -1, 1), size * uniform(g, 0, 4), depth, i % 3 == 1));
  }
  for (int i = 0; i < 10; ++i)  // centres within 0.25 (rA + rB)
    placed("deep", i, "deep", verify::uniform_int(g, 3, 8), verify::uniform_int(g, 3, 8),
           log_uniform(g, -1, 1), log_uniform(g, -1, 1), {0, 0}, 0, 0.25);
  for (int i = 0; i < 15; ++i) {  // needle across a polygon, needles crossing, parallel needles a gap apart
    const double length = log_uniform(g, -1, 2), aspect = log_uniform(g, 2, 5);
    const std::string id = "needle-" + std::to_string(i);
    const std::string dims = fmt("length %.3g", length) + fmt(" aspect %.3g", aspect);
    if (i % 3 == 0) {
      const double size = length * log_uniform(g, -2, 0);
      const shape a = needle_at(g, length, aspect, {0, 0}, false);
      const shape b = convex_at(g, verify::uniform_int(g, 3, 8), size, {length * uniform(g, -0.3, 0.3), 0});
      out.push_back({id, "needle", "needle: across a polygon, " + dims + "; B: " + convex_label(b, size), a.v, b.v});
    } else if (i % 3 == 1) {
      const shape a = needle_at(g, length, aspect, {0, 0}, false);
      const shape b = needle_at(g, length * log_uniform(g, -1, 0), aspect, {length * uniform(g, -0.2, 0.2), 0}, false);
      out.push_back({id, "needle", "needle: two needles crossing (or not), " + dims, a.v, b.v});
    } else {
      const float w = static_cast<float>(length / aspect);
      const float gap = static_cast<float>(w * log_uniform(g, -2, 1)) * (i % 2 == 0 ? 1 : -1);
      const float L = static_cast<float>(length), y = w + gap;
      const float x = static_cast<float>(length * uniform(g, -0.5, 0.5));
      polygon_f a = {{0, 0}, {L, 0}, {L, w}, {0, w}};
      polygon_f b = {{x, y}, {x + L, y}, {x + L, y + w}, {x, y + w}};
      out.push_back({id, "needle", "needle: parallel needles" + fmt(", gap %.3g", static_cast<double>(y) - w) + ", " + dims,
                     a, b});
    }
  }
  return out;
}

}  // namespace rigidref::tools
