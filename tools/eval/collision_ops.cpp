// `rigidref eval` ops gjk.distance, epa.penetration (reference/include/
// rigidref/gjk.hpp, epa.hpp) and sat.rectangles (the article's d0..d3 test,
// articles/rectangle_sat.hpp). A shape is any form of docs/eval-protocol.md
// section 2: a convex polygon (a list of [x, y], either orientation; repeated
// and collinear vertices are dropped, anything non-convex is invalid_input),
// a rounded polygon, a circle, a point, a segment or a capsule, each a core
// and a radius (rigidref/convex_shape.hpp, shape_queries.hpp).
// Optional extra result fields: "status" (converged, touching,
// degenerate_input, cap_reached; see gjk.hpp) and, for epa.penetration,
// the witness points "point_a" and "point_b". Distances and depths need a
// square root: "exact" is unsupported (use mp100).
#include "eval/op_table.hpp"

#include "rigidref/articles/rectangle_sat.hpp"
#include "rigidref/epa.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/shape_queries.hpp"
#include "rigidref/support.hpp"

#include <string>
#include <vector>

namespace rigidref::tools::eval {
// This file's own names: the op files compile as one unit (tools/CMakeLists.txt).
namespace collision_ops {

template <class T>
T radius_field(const json& v, const std::string& base) {
  const T r = real_from_json<T>(v["radius"], base + ".radius");
  if (!(r >= 0)) throw invalid_input(base + ".radius: must be >= 0");
  return r;
}

template <class T>
vec2<T> pair_field(const json& p, const std::string& where) {
  if (!p.is_array() || p.size() != 2) throw invalid_input(where + ": expected an [x, y] pair, got " + brief(p));
  return {real_from_json<T>(p[0], where + "[0]"), real_from_json<T>(p[1], where + "[1]")};
}

// A shape of docs/eval-protocol.md section 2, as a core and a radius
// (rigidref/convex_shape.hpp): a polygon (a list of [x, y], or {"vertices"}
// with an optional radius >= 0), a circle {"center", "radius" > 0}, a point
// {"point"}, a segment or capsule {"segment": [p, q], optional "radius" >= 0}.
template <class T>
convex_shape<T> shape_field(const fields& f, const char* name) {
  const json& v = f.require(name);
  const std::string base(name);
  try {
    if (v.is_array()) return to_shape(make_convex_polygon<T>(f.points<T>(name)));
    if (!v.is_object())
      throw invalid_input("expected a convex polygon (a list of [x, y]) or a shape object (docs/eval-protocol.md, "
                          "section 2), got " + brief(v));
    if (v.contains("vertices")) {
      const T r = v.contains("radius") ? radius_field<T>(v, base) : T(0);
      const fields inner(v);
      return make_rounded_polygon<T>(inner.points<T>("vertices"), r);
    }
    if (v.contains("center")) {
      if (!v.contains("radius")) throw invalid_input("a circle needs \"center\": [x, y] and \"radius\"");
      const T radius = real_from_json<T>(v["radius"], base + ".radius");
      return to_shape(make_circle(pair_field<T>(v["center"], base + ".center"), radius));
    }
    if (v.contains("point")) {
      if (v.contains("radius"))
        throw invalid_input("a point has no radius (a disc is {\"center\": [x, y], \"radius\": r})");
      return make_point(pair_field<T>(v["point"], base + ".point"));
    }
    if (v.contains("segment")) {
      const json& s = v["segment"];
      if (!s.is_array() || s.size() != 2)
        throw invalid_input("segment: expected [[x1, y1], [x2, y2]], got " + brief(s));
      const T r = v.contains("radius") ? radius_field<T>(v, base) : T(0);
      return make_capsule(pair_field<T>(s[0], base + ".segment[0]"), pair_field<T>(s[1], base + ".segment[1]"), r);
    }
    throw invalid_input("expected a shape (docs/eval-protocol.md, section 2), got " + brief(v));
  } catch (const invalid_input& e) {
    const std::string what = e.what();
    if (what.rfind(base + ".", 0) == 0 || what.rfind(base + ":", 0) == 0) throw;  // already names the field
    throw invalid_input(base + ": " + what);
  }
}

template <class T>
void require_sqrt_type(const char* op) {
  if constexpr (is_exact_v<T>)
    throw unsupported(std::string(op) + " needs a square root, which exact (rational) arithmetic does not have: "
                      "use mp50 or mp100");
}

// gjk.distance: a, b -> intersecting, distance, point_a, point_b (the last
// two omitted when intersecting), status.
struct gjk_distance_op {
  template <class T>
  static ojson run(const fields& f) {
    require_sqrt_type<T>("gjk.distance");
    if constexpr (!is_exact_v<T>) {
      const gjk_result<T> g = gjk_distance<T>(shape_field<T>(f, "a"), shape_field<T>(f, "b"));
      ojson r = ojson::object();
      r["intersecting"] = g.intersecting;
      r["distance"] = real_value(g.distance, "distance");
      if (!g.intersecting) {
        r["point_a"] = point_value(g.point_a, "point_a");
        r["point_b"] = point_value(g.point_b, "point_b");
      }
      r["status"] = to_string(g.status);
      return r;
    }
    return {};
  }
};

// epa.penetration: a, b -> intersecting, depth, normal (when intersecting),
// point_a, point_b (witnesses), status.
struct epa_penetration_op {
  template <class T>
  static ojson run(const fields& f) {
    require_sqrt_type<T>("epa.penetration");
    if constexpr (!is_exact_v<T>) {
      const epa_result<T> e = epa_penetration<T>(shape_field<T>(f, "a"), shape_field<T>(f, "b"));
      ojson r = ojson::object();
      r["intersecting"] = e.intersecting;
      r["depth"] = real_value(e.depth, "depth");
      if (e.intersecting) {
        r["normal"] = point_value(e.normal, "normal");
        r["point_a"] = point_value(e.point_a, "point_a");
        r["point_b"] = point_value(e.point_b, "point_b");
      }
      r["status"] = to_string(e.status);
      return r;
    }
    return {};
  }
};

template <class T>
articles::article_rectangle<T> rectangle_field(const fields& f, const char* name) {
  const json& v = f.require(name);
  const std::string base(name);
  if (!v.is_object())
    throw invalid_input(base + ": expected {\"center\": [x, y], \"width\", \"height\", \"angle\"}, got " + brief(v));
  for (const char* key : {"center", "width", "height", "angle"})
    if (!v.contains(key)) throw invalid_input(base + ": missing \"" + key + "\"");
  const json& c = v["center"];
  if (!c.is_array() || c.size() != 2) throw invalid_input(base + ".center: expected an [x, y] pair, got " + brief(c));
  articles::article_rectangle<T> r;
  r.center = {real_from_json<T>(c[0], base + ".center[0]"), real_from_json<T>(c[1], base + ".center[1]")};
  r.width = real_from_json<T>(v["width"], base + ".width");
  r.height = real_from_json<T>(v["height"], base + ".height");
  r.angle = real_from_json<T>(v["angle"], base + ".angle");
  if (!(r.width > 0) || !(r.height > 0)) throw invalid_input(base + ": width and height must be > 0");
  return r;
}

// sat.rectangles: r1, r2 -> overlap, d3 (axes n1, t1, n2, t2), evaluated as
// the article does, in T (its quirks included: D-RECT-6). Needs cos and sin
// of the angles: "exact" is unsupported.
struct sat_rectangles_op {
  template <class T>
  static ojson run(const fields& f) {
    if constexpr (is_exact_v<T>) {
      throw unsupported("sat.rectangles takes angles, which need cos and sin: not available in exact arithmetic "
                        "(use mp50 or mp100)");
    } else {
      const articles::article_rectangle<T> r1 = rectangle_field<T>(f, "r1");
      const articles::article_rectangle<T> r2 = rectangle_field<T>(f, "r2");
      const articles::rectangle_sat_result<T> r = articles::rectangle_sat<T>(r1, r2);
      ojson out = ojson::object();
      out["overlap"] = r.overlap;
      ojson d3 = ojson::array();
      for (const T& d : r.d3()) d3.push_back(real_value(d, "d3"));
      out["d3"] = d3;
      return out;
    }
  }
};

}  // namespace collision_ops

void add_collision_ops(op_table& table) {
  using namespace collision_ops;
  add_op<sat_rectangles_op>(table, "sat.rectangles",
         {"the article's rectangle test (d0..d3), evaluated as the article does",
          "r1, r2: {center, width, height, angle}",
          "overlap, d3 (axes n1, t1, n2, t2)"});
  add_op<gjk_distance_op>(table, "gjk.distance",
         {"distance and closest points of two convex shapes (GJK, exact decisions)",
          "a, b: shapes (polygon, rounded polygon, circle, point, segment, capsule)",
          "intersecting, distance, point_a, point_b, status"});
  add_op<epa_penetration_op>(table, "epa.penetration",
         {"penetration depth and normal of two convex shapes (EPA, exact decisions)",
          "a, b: shapes (polygon, rounded polygon, circle, point, segment, capsule)",
          "intersecting, depth, normal, point_a, point_b, status"});
}

}  // namespace rigidref::tools::eval
