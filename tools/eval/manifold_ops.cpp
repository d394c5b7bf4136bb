// `rigidref eval` op contact.manifold: the contact points, normal and
// per-point separations of two convex polygons, by the clipping manifold of
// reference/include/rigidref/contact.hpp (D-CONTACT-1..6), or of a circle
// and a polygon or two circles, one point, by contact_circle.hpp
// (D-CONTACT-15).
//
// Decisions (docs/eval-protocol.md, section 3):
//   - The reported "point" is the incident-boundary point p (D-CONTACT-4):
//     on the polygon that does not hold the reference face; its projection
//     on the reference face is "reference_point". Engines that report the
//     midpoint of the two (Box2D) or a point on either surface lie on the
//     same normal line, which is how `rigidref check` judges them (D-CONTACT-11).
//   - "normal" is always given: the unit normal from a to b of the reference
//     face (when separated: the face of largest separation, D-CONTACT-1).
//   - "depth": the SAT penetration depth (0 unless intersecting, D-SAT-3).
//   - Optional input "relative_margin" (default 0): keep points whose
//     separation is <= relative_margin * L, L the smaller polygon's size
//     (D-CONTACT-6), for comparing with engines that keep speculative points.
//   - A circle's feature is {"type": "vertex", "index": 0} (its core is one
//     point). Points, segments, capsules and rounded polygons (radius > 0)
//     are answered "unsupported", naming the shape.
//   - The separation and the unit normal need a square root: "exact" is
//     unsupported (use mp100), as for gjk.distance.
#include "eval/op_table.hpp"

#include "rigidref/contact.hpp"
#include "rigidref/contact_circle.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/sat.hpp"
#include "rigidref/support.hpp"

#include <string>
#include <variant>
#include <vector>

namespace rigidref::tools::eval {
// This file's own names: the op files compile as one unit (tools/CMakeLists.txt).
namespace manifold_ops {

const char* status_name(contact_status s) {
  switch (s) {
    case contact_status::separated: return "separated";
    case contact_status::touching: return "touching";
    case contact_status::intersecting: return "intersecting";
  }
  return "?";
}

// A shape that contact.manifold takes: a convex polygon (a list, or
// {"vertices", "radius": 0}) or a circle {"center", "radius"}; unsupported
// for the rest.
template <class T>
using manifold_shape = std::variant<std::vector<vec2<T>>, circle<T>>;

template <class T>
manifold_shape<T> shape_field(const fields& f, const char* name) {
  const json& v = f.require(name);
  const std::string base(name);
  const std::string later = " (contact.manifold takes convex polygons and circles; other shapes are later work)";
  if (v.is_array()) return f.points<T>(name);
  if (!v.is_object())
    throw invalid_input(base + ": expected a convex polygon (a list of [x, y]) or a circle, got " + brief(v));
  if (v.contains("vertices")) {
    if (v.contains("radius")) {
      const T r = real_from_json<T>(v["radius"], base + ".radius");
      if (r < 0) throw invalid_input(base + ".radius: must be >= 0");
      if (r > 0) throw unsupported(base + ": a rounded polygon (radius > 0) is not supported" + later);
    }
    const fields inner(v);
    try {
      return inner.points<T>("vertices");
    } catch (const invalid_input& e) {
      throw invalid_input(base + "." + e.what());
    }
  }
  if (v.contains("center")) {
    if (!v.contains("radius")) throw invalid_input(base + ": a circle needs \"center\": [x, y] and \"radius\"");
    const json& c = v["center"];
    if (!c.is_array() || c.size() != 2)
      throw invalid_input(base + ".center: expected an [x, y] pair, got " + brief(c));
    const vec2<T> center{real_from_json<T>(c[0], base + ".center[0]"), real_from_json<T>(c[1], base + ".center[1]")};
    const T radius = real_from_json<T>(v["radius"], base + ".radius");
    try {
      return make_circle(center, radius);
    } catch (const invalid_input& e) {
      throw invalid_input(base + ": " + e.what());
    }
  }
  if (v.contains("point")) throw unsupported(base + ": a point is not supported" + later);
  if (v.contains("segment")) throw unsupported(base + ": a segment or capsule is not supported" + later);
  throw invalid_input(base + ": expected a convex polygon (a list of [x, y] or {\"vertices\": [...]}) or a circle, got " +
                      brief(v));
}

// The polygon's name in its error message (sat() says only what is wrong).
template <class T>
void require_convex_named(const std::vector<vec2<T>>& v, const char* name) {
  try {
    make_convex_polygon<T>(v);
  } catch (const invalid_input& e) {
    throw invalid_input(std::string(name) + ": " + e.what());
  }
}

template <class T>
struct manifold_answer {
  contact_manifold<T> manifold;
  T depth{0};
};

// The manifold and depth of one pair of shapes, by kind.
template <class T>
struct manifold_of {
  const contact_options& options;
  manifold_answer<T> operator()(const std::vector<vec2<T>>& a, const std::vector<vec2<T>>& b) const {
    require_convex_named(a, "a");
    require_convex_named(b, "b");
    // The depth only: the separated distance is not reported here and
    // costs n*m exact distances (80 s for two 1000-gons apart).
    const sat_result<T> s =
        rigidref::detail::sat_decision<T>(std::span<const vec2<T>>(a), std::span<const vec2<T>>(b));
    return {collide_polygons<T>(a, b, options), s.depth};
  }
  manifold_answer<T> operator()(const std::vector<vec2<T>>& a, const circle<T>& b) const {
    require_convex_named(a, "a");
    return {collide_polygon_circle_manifold<T>(std::span<const vec2<T>>(a), b, options),
            collide_polygon_circle<T>(a, b.center, b.radius).depth};
  }
  manifold_answer<T> operator()(const circle<T>& a, const std::vector<vec2<T>>& b) const {
    require_convex_named(b, "b");
    return {collide_circle_polygon_manifold<T>(a, std::span<const vec2<T>>(b), options),
            collide_polygon_circle<T>(b, a.center, a.radius).depth};
  }
  manifold_answer<T> operator()(const circle<T>& a, const circle<T>& b) const {
    return {collide_circles_manifold<T>(a, b, options), collide_circles<T>(a.center, a.radius, b.center, b.radius).depth};
  }
};

ojson feature_value(const contact_feature& f) {
  return {{"type", f.type == feature_type::vertex ? "vertex" : "face"}, {"index", f.index}};
}

// contact.manifold: a, b (convex polygons or circles), relative_margin (optional) ->
// status, depth, normal, reference, points [{point, separation,
// reference_point, feature_a, feature_b}].
struct contact_manifold_op {
  template <class T>
  static ojson run(const fields& f) {
    if constexpr (is_exact_v<T>) {
      throw unsupported("contact.manifold needs a square root (unit normal, separations), which exact (rational) "
                        "arithmetic does not have: use mp50 or mp100");
    } else {
      const manifold_shape<T> a = shape_field<T>(f, "a");
      const manifold_shape<T> b = shape_field<T>(f, "b");
      contact_options options;
      if (f.has("relative_margin")) {
        options.relative_margin = f.real<double>("relative_margin");
        if (!(options.relative_margin >= 0)) throw invalid_input("relative_margin: must be >= 0");
      }
      const manifold_answer<T> answer = std::visit(manifold_of<T>{options}, a, b);
      const contact_manifold<T>& m = answer.manifold;
      ojson r = ojson::object();
      r["status"] = status_name(m.status);
      r["depth"] = real_value(answer.depth, "depth");
      r["normal"] = point_value(m.normal, "normal");
      r["reference"] = m.reference_polygon == 0 ? "a" : "b";
      ojson points = ojson::array();
      for (const manifold_point<T>& p : m.points) {
        ojson q = ojson::object();
        q["point"] = point_value(p.point, "points.point");
        q["separation"] = real_value(p.separation, "points.separation");
        q["reference_point"] = point_value(p.reference_point, "points.reference_point");
        q["feature_a"] = feature_value(p.feature_a);
        q["feature_b"] = feature_value(p.feature_b);
        points.push_back(std::move(q));
      }
      r["points"] = std::move(points);
      return r;
    }
  }
};

}  // namespace manifold_ops

void add_manifold_ops(op_table& table) {
  using namespace manifold_ops;
  add_op<contact_manifold_op>(table, "contact.manifold",
         {"contact points, normal and separations of two convex polygons or circles (clipping, exact decisions)",
          "a, b: convex polygons or circles; relative_margin (optional, default 0)",
          "status, depth, normal, reference, points [{point, separation, reference_point, feature_a, feature_b}]"});
}

}  // namespace rigidref::tools::eval
