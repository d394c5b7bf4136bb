// How `rigidref check` judges a contact.manifold answer: not by equality
// with the reference's points (engines report the incident point, the
// midpoint of the two surfaces, or a point on either one, and may keep
// speculative points), but by what every correct manifold satisfies
// (derivations/contact.md, D-CONTACT-11..14):
//   - the normal n: B moved by depth(n) along n just separates, and depth(n)
//     is the reference depth (pairs that touch or overlap); for a separated
//     pair, n separates them (D-CONTACT-12);
//   - each point x: the line x + t n meets both shapes, and x is outside
//     neither by more than |sigma(x)| (D-CONTACT-13), where sigma(x), the
//     signed distance along that line from A's exit to B's entry, is what
//     its "separation" must equal (D-CONTACT-11);
//   - no clearly penetrating reference point is missing (D-CONTACT-14).
// Shapes are convex polygons or circles (a disc's line and support:
// D-CONTACT-15). Every measure is exact on the engine's printed values; the
// square roots (|n|, distances, a disc's chord) are taken in 100 digits
// (D-ENGINE-2).
#pragma once

#include "check/geometry.hpp"
#include "protocol/json.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace rigidref::tools::check {

struct manifold_judgement {
  bool pass = true;
  double error_eps = 0;     // worst error in the engine's epsilon
  std::string worst_field;  // where it was
  std::string failure;      // short reason of the first failure
  std::string detail;
};

struct manifold_tolerance {
  exact eps;          // the engine's epsilon
  exact size;         // L: the size of the input shapes
  double budget_eps;  // the op's budget (tools/check/rules.hpp)
  std::map<std::string, exact, std::less<>> allowance;  // by field: normal, points, separation
};

namespace detail {

using P = vec2<exact>;

struct engine_value_missing : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An engine number: null (NaN or infinity written by a JSON writer) is a failed answer.
inline exact engine_real(const nlohmann::json& v, const std::string& where) {
  if (v.is_null()) throw engine_value_missing(where + " is null (NaN or infinite in the engine)");
  if (v.is_number() && !std::isfinite(v.get<double>())) throw engine_value_missing(where + " is not finite");
  return exact_of(v, where);
}

inline P engine_point(const nlohmann::json& v, const std::string& where) {
  if (!v.is_array() || v.size() != 2) throw std::invalid_argument(where + ": expected an [x, y] pair");
  return {engine_real(v[0], where + "[0]"), engine_real(v[1], where + "[1]")};
}

// A shape of the request (geometry.hpp's shape_of: a polygon or a circle,
// the forms contact.manifold answers), required.
inline exact_shape manifold_shape_of(const nlohmann::json& request, const char* name) {
  const std::optional<exact_shape> s = shape_of(request, name);
  if (!s) throw std::invalid_argument(std::string("missing shape \"") + name + "\"");
  return *s;
}

inline int turn_of(const std::vector<P>& v) {
  exact twice_area = 0;
  for (std::size_t i = 0; i < v.size(); ++i) twice_area += cross(v[i], v[(i + 1) % v.size()]);
  return twice_area > 0 ? 1 : -1;  // the reference accepted the polygon: nonzero area
}

// Where the line x + t n (n unnormalised) meets a convex polygon:
// t in [t_lo, t_hi]. When it misses, `miss` is its distance from the
// polygon and [t_lo, t_hi] is taken on the parallel line that touches it
// (through the nearest vertex or edge). D-CONTACT-11
struct line_hit {
  exact miss = 0;
  exact t_lo, t_hi;
};

inline line_hit line_through(const std::vector<P>& v, const P& x, const P& n, const exact& n_len) {
  const exact n2 = length_squared(n);
  // Lateral coordinate u(y) = cross(n, y - x): the line is u = 0.
  exact u_min = cross(n, v[0] - x), u_max = u_min;
  for (const P& y : v) {
    const exact u = cross(n, y - x);
    u_min = std::min(u_min, u);
    u_max = std::max(u_max, u);
  }
  line_hit h;
  if (u_min > 0 || u_max < 0) {
    const exact u_touch = u_min > 0 ? u_min : u_max;
    h.miss = abs_of(u_touch) / n_len;
    std::optional<exact> lo, hi;
    for (const P& y : v) {
      if (cross(n, y - x) != u_touch) continue;
      const exact t = dot(n, y - x) / n2;
      lo = lo ? std::min(*lo, t) : t;
      hi = hi ? std::max(*hi, t) : t;
    }
    h.t_lo = *lo;
    h.t_hi = *hi;
    return h;
  }
  // The line meets the polygon: intersect the half-planes m.(y - v_i) <= 0.
  const int turn = turn_of(v);
  std::optional<exact> lo, hi;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const P e = v[(i + 1) % v.size()] - v[i];
    const P m = turn > 0 ? P{e.y, exact(-e.x)} : P{exact(-e.y), e.x};
    const exact mn = dot(m, n);
    if (mn == 0) continue;  // parallel to the line, which meets the polygon: no bound
    const exact t = dot(m, v[i] - x) / mn;
    if (mn > 0) hi = hi ? std::min(*hi, t) : t;
    else lo = lo ? std::max(*lo, t) : t;
  }
  // A bounded polygon bounds a line that meets it on both sides.
  h.t_lo = *lo;
  h.t_hi = *hi;
  return h;
}

// Where the line x + t n meets the disc |y - c| <= r: t0 -+ h with
// t0 = (c - x).n/|n|^2 and h = sqrt(r^2 |n|^2 - u^2)/|n|^2, u = cross(n, c - x).
// When it misses (|u| > r|n|), `miss` is |u|/|n| - r and t_lo = t_hi = t0,
// on the parallel line through the disc's nearest point. D-CONTACT-15
inline line_hit line_through_disc(const P& c, const exact& r, const P& x, const P& n, const exact& n_len) {
  const exact n2 = length_squared(n);
  const exact u = cross(n, c - x);
  const exact t0 = dot(n, c - x) / n2;
  line_hit h;
  const exact chord2 = r * r * n2 - u * u;
  if (chord2 < 0) {
    h.miss = abs_of(u) / n_len - r;
    h.t_lo = h.t_hi = t0;
    return h;
  }
  const exact half = sqrt_exact(chord2) / n2;
  h.t_lo = t0 - half;
  h.t_hi = t0 + half;
  return h;
}

inline line_hit line_through_shape(const exact_shape& s, const P& x, const P& n, const exact& n_len) {
  return s.polygon.empty() ? line_through_disc(s.center, s.radius, x, n, n_len) : line_through(s.polygon, x, n, n_len);
}

// How far x is outside the shape, a core grown by its radius (0 inside or on it).
inline exact outside_by(const exact_shape& s, const P& x) {
  return std::max(exact(0), exact(distance_to_core(s, x) - s.radius));
}

// sigma(x): A's exit to B's entry along the unit direction of n. D-CONTACT-11
struct line_separation {
  exact sigma;
  exact miss;  // the larger distance by which the line misses A or B
};

inline line_separation separation_at(const exact_shape& a, const exact_shape& b, const P& x, const P& n,
                                     const exact& n_len) {
  const line_hit ha = line_through_shape(a, x, n, n_len), hb = line_through_shape(b, x, n, n_len);
  return {exact((hb.t_lo - ha.t_hi) * n_len), std::max(ha.miss, hb.miss)};
}

}  // namespace detail

// Judges one contact.manifold answer (`result`) of the request `request`
// against the reference result `reference` (rigidref eval, mp100).
inline manifold_judgement judge_manifold(const nlohmann::json& request, const nlohmann::json& result,
                                         const nlohmann::json& reference, const manifold_tolerance& tol) {
  using detail::P, detail::engine_point, detail::engine_real, detail::engine_value_missing, detail::line_separation,
      detail::manifold_shape_of, detail::outside_by, detail::separation_at;
  manifold_judgement out;
  const auto allowance = [&](const std::string& field) {
    const auto it = tol.allowance.find(field);
    return it == tol.allowance.end() ? exact(0) : it->second;
  };
  const auto fail = [&](const std::string& failure, const std::string& detail) {
    if (!out.pass) return;
    out.pass = false;
    out.failure = failure;
    out.detail = detail;
  };
  // One measured error `diff` of `field` on the scale `scale` (D-CONTACT-13).
  const auto record = [&](const std::string& field, const std::string& where, const exact& diff,
                          const exact& scale) {
    const exact allowed = tol.budget_eps * tol.eps * scale + allowance(field);
    double in_eps = 0;
    if (diff != 0) {
      const exact unit = tol.eps * scale;
      in_eps = unit == 0 ? std::numeric_limits<double>::infinity()
                         : static_cast<double>(round_to<double>(exact(diff / unit)));
    }
    if (in_eps > out.error_eps || out.worst_field.empty()) {
      out.error_eps = in_eps;
      out.worst_field = field;
    }
    if (diff > allowed) {
      std::ostringstream d;
      d << where << ": off by " << std::setprecision(3) << in_eps << " eps (budget " << tol.budget_eps << " eps";
      if (allowance(field) != 0) d << " + allowance " << static_cast<double>(round_to<double>(allowance(field)));
      d << ")";
      fail(field, d.str());
    }
  };

  try {
    const exact_shape shape_a = manifold_shape_of(request, "a"), shape_b = manifold_shape_of(request, "b");
    const exact ref_depth = exact_of(reference.at("depth"), "reference.depth");
    const bool ref_separated = reference.at("status") == "separated";
    const auto points = result.find("points");
    if (points == result.end() || !points->is_array()) {
      fail("points shape", "the engine's answer has no \"points\" list");
      return out;
    }

    // D-CONTACT-14: the clearly penetrating reference points must have
    // engine counterparts (at least as many points).
    std::size_t deep = 0;
    for (const auto& p : reference.at("points")) {
      const exact s = exact_of(p.at("separation"), "reference.separation");
      const exact scale = std::max(abs_of(s), tol.size);
      if (s < 0 && -s > tol.budget_eps * tol.eps * scale + allowance("separation")) ++deep;
    }
    if (points->size() < deep) {
      out.error_eps = std::numeric_limits<double>::infinity();
      out.worst_field = "points";
      fail("points missing", "the engine gives " + std::to_string(points->size()) + " points, the reference " +
                                 std::to_string(deep) + " clearly penetrating ones");
      return out;
    }
    if (points->empty()) return out;  // nothing claimed, nothing missing

    // D-CONTACT-12: the normal.
    if (!result.contains("normal")) {
      fail("normal missing", "the engine gives points but no \"normal\"");
      return out;
    }
    const P n = engine_point(result["normal"], "result.normal");
    if (n.x == 0 && n.y == 0) {
      out.error_eps = std::numeric_limits<double>::infinity();
      out.worst_field = "normal";
      fail("normal", "normal: the zero vector");
      return out;
    }
    const exact n_len = sqrt_exact(length_squared(n));
    const exact along = depth_along(shape_a, shape_b, n);
    if (ref_separated) {
      // Any separating direction will do; it must not make the pair overlap.
      const exact scale = tol.size;
      record("normal", "normal (overlap along it, the pair being separated)",
             std::max({exact(0), along, exact(abs_of(exact(n_len - 1)) * scale)}), scale);
    } else {
      const exact scale = std::max(ref_depth, tol.size);
      record("normal", "normal (depth along it against the reference depth)",
             std::max(abs_of(exact(along - ref_depth)), exact(abs_of(exact(n_len - 1)) * scale)), scale);
    }

    // D-CONTACT-11, D-CONTACT-13: each point.
    for (std::size_t i = 0; i < points->size(); ++i) {
      const std::string where = "points[" + std::to_string(i) + "]";
      const nlohmann::json& p = (*points)[i];
      if (!p.is_object() || !p.contains("point")) {
        fail("points shape", where + ": expected {\"point\": [x, y], \"separation\": s}");
        return out;
      }
      const P x = engine_point(p["point"], "result." + where + ".point");
      const line_separation ls = separation_at(shape_a, shape_b, x, n, n_len);
      const exact reach = abs_of(ls.sigma);
      const exact outside = std::max({exact(0), exact(outside_by(shape_a, x) - reach),
                                      exact(outside_by(shape_b, x) - reach)});
      // The point's coordinates carry its offset from the origin, and so
      // does every separation computed from them (D-CONTACT-11, D-CONTACT-13).
      const exact offset = std::max(abs_of(x.x), abs_of(x.y));
      record("points", where + ".point (outside a shape, or its normal line misses one)", std::max(ls.miss, outside),
             std::max(offset, tol.size));
      if (p.contains("separation")) {
        const exact s = engine_real(p["separation"], "result." + where + ".separation");
        record("separation", where + ".separation (against the signed distance along the normal there)",
               abs_of(exact(s - ls.sigma)), std::max({reach, tol.size, offset}));
      }
    }
  } catch (const engine_value_missing& e) {
    fail("not finite", e.what());
  }
  return out;
}

}  // namespace rigidref::tools::check
