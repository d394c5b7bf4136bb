// `rigidref eval` ops mass.*: mass properties (reference/include/rigidref/mass.hpp
// and the articles' ports in rigidref/articles/). Field names and results are
// those of docs/eval-protocol.md; optional extras are documented per op.
// First, for the whole eval_ops unit (tools/CMakeLists.txt): the cores it
// calls are compiled once, in rigidref_instances.
#include "rigidref/instances.hpp"

#include "eval/op_table.hpp"

#include "rigidref/articles/create_polygon_points.hpp"
#include "rigidref/articles/triangle_inertia.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/mass.hpp"
#include "rigidref/predicates.hpp"

#include <span>
#include <string>
#include <vector>

namespace rigidref::tools::eval {
// This file's own names: the op files compile as one unit (tools/CMakeLists.txt).
namespace mass_ops {

// Largest "sides" accepted by mass.regular_polygon: far beyond any use (the
// inertia tends to m R^2 / 2 long before); larger counts are input mistakes.
constexpr long long max_regular_polygon_sides = 1000000;

template <class T>
void require_positive(const T& x, const char* what) {
  if (!is_finite(x) || !(x > 0)) throw invalid_input(std::string(what) + " must be finite and > 0");
}

// mass.polygon: vertices, density (default 1) -> area, centroid, mass, inertia.
// Extra optional field "mass" (the total mass) instead of "density"; giving
// both is invalid_input. Any simple polygon, either orientation (D-MASS-1..5).
struct mass_polygon {
  template <class T>
  static ojson run(const fields& f) {
    const std::vector<vec2<T>> v = f.points<T>("vertices");
    const std::span<const vec2<T>> s(v);
    if (f.has("mass") && f.has("density"))
      throw invalid_input("give either \"density\" or \"mass\", not both");
    const mass_properties<T> p = f.has("mass") ? polygon_mass_from_mass<T>(s, f.real<T>("mass"))
                                               : polygon_mass_from_density<T>(s, f.real_or<T>("density", T(1)));
    ojson r = ojson::object();
    r["area"] = real_value(p.area, "area");
    r["centroid"] = point_value(p.centroid, "centroid");
    r["mass"] = real_value(p.mass, "mass");
    r["inertia"] = real_value(p.inertia, "inertia");
    return r;
  }
};

// mass.triangle: vertices (3), mass -> inertia about the centroid.
// Extra optional field "model": "reference" (default; rigidref::triangle_inertia,
// within 1 ulp) or "article" (the article's absolute-coordinate formula
// evaluated in T as the article does, cancellation included, D-MASS-6). Both
// models accept the same inputs: 3 finite vertices, non-degenerate, mass > 0.
struct mass_triangle {
  template <class T>
  static ojson run(const fields& f) {
    const std::vector<vec2<T>> v = f.points<T>("vertices");
    const T mass = f.real<T>("mass");
    const std::string model = f.choice("model", {"reference", "article"}, "reference");
    const std::span<const vec2<T>> s(v);
    T inertia;
    if (model == "reference") {
      inertia = triangle_inertia<T>(s, mass);
    } else {
      if (v.size() != 3)
        throw invalid_input("a triangle needs exactly 3 vertices, got " + std::to_string(v.size()));
      require_positive(mass, "mass");
      if (orientation(v[0], v[1], v[2]) == 0) throw invalid_input("triangle is degenerate (zero area)");
      inertia = articles::triangle_inertia<T>(s, mass);
    }
    ojson r = ojson::object();
    r["inertia"] = real_value(inertia, "inertia");
    return r;
  }
};

// mass.regular_polygon: sides (integer, 3 .. 1000000), radius (circumradius),
// mass, formula: "closed_form" (default; m R^2 (2 + cos(2 pi/n)) / 6,
// D-MASS-8) or "article" (createPolygonPoints' per-unit-mass inertia times
// the mass, in T, D-MASS-7). Both need cos: "exact" is unsupported.
struct mass_regular_polygon {
  template <class T>
  static ojson run(const fields& f) {
    const int sides = static_cast<int>(f.integer("sides", 3, max_regular_polygon_sides));
    const T radius = f.real<T>("radius");
    const T mass = f.real<T>("mass");
    const std::string formula = f.choice("formula", {"article", "closed_form"}, "closed_form");
    T inertia;
    if (formula == "closed_form") {
      inertia = regular_polygon_inertia<T>(sides, radius, mass);  // throws unsupported in exact
    } else if constexpr (is_exact_v<T>) {
      throw unsupported("the article's regular-polygon inertia needs cos(2 pi / n): not available in exact "
                        "arithmetic (use mp50 or mp100)");
    } else {
      require_positive(radius, "radius");
      require_positive(mass, "mass");
      inertia = T(articles::create_polygon_inertia<T>(radius, sides) * mass);  // per unit mass, times m
    }
    ojson r = ojson::object();
    r["inertia"] = real_value(inertia, "inertia");
    return r;
  }
};

// mass.circle: radius, mass -> inertia (m r^2 / 2, D-MASS-9).
struct mass_circle {
  template <class T>
  static ojson run(const fields& f) {
    const T radius = f.real<T>("radius");
    const T mass = f.real<T>("mass");
    ojson r = ojson::object();
    r["inertia"] = real_value(circle_inertia<T>(radius, mass), "inertia");
    return r;
  }
};

// mass.rectangle: width, height, mass -> inertia (m (w^2 + h^2) / 12, D-MASS-9).
struct mass_rectangle {
  template <class T>
  static ojson run(const fields& f) {
    const T width = f.real<T>("width");
    const T height = f.real<T>("height");
    const T mass = f.real<T>("mass");
    ojson r = ojson::object();
    r["inertia"] = real_value(rectangle_inertia<T>(width, height, mass), "inertia");
    return r;
  }
};

}  // namespace mass_ops

void add_mass_ops(op_table& table) {
  using namespace mass_ops;
  add_op<mass_polygon>(table, "mass.polygon",
         {"area, centroid, mass and inertia of a simple polygon",
          "vertices, density (default 1)",
          "area, centroid, mass, inertia (about the centroid)"});
  add_op<mass_triangle>(table, "mass.triangle",
         {"inertia of a triangle by the article's formula",
          "vertices (3), mass",
          "inertia (about the centroid)"});
  add_op<mass_regular_polygon>(table, "mass.regular_polygon",
         {"inertia of a regular n-gon (the article's createPolygonPoints or the closed form)",
          "sides, radius, mass, formula",
          "inertia (about the centre)"});
  add_op<mass_circle>(table, "mass.circle",
         {"inertia of a disc",
          "radius, mass",
          "inertia"});
  add_op<mass_rectangle>(table, "mass.rectangle",
         {"inertia of a rectangle",
          "width, height, mass",
          "inertia"});
}

}  // namespace rigidref::tools::eval
