// The polygon corpus for mass-property accuracy: the shapes on which peers
// fail (Box2D #949, #1006, #422: far from the origin; needles), generated in
// T so every vertex is exactly representable in the tested type.
//
// Kinds: convex (points on an ellipse), star (concave, radii varying),
// comb (deeply concave zigzag), needle (aspect ratio up to 1e6). Each is
// scaled (1e-3 .. 1e3), rotated, cyclically shifted, flipped to clockwise
// half the time, and translated by up to 1e8 (capped so the shape still
// spans 2^12 ulps of the offset: float cannot hold a unit square at 1e8).
#pragma once

#include "rigidref/polygon.hpp"
#include "rigidref/verify/random.hpp"

#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace rigidref::verify {

template <class T>
struct polygon_case {
  std::string label;  // kind and transform, for the worst-case report
  std::vector<vec2<T>> vertices;
};

enum class polygon_kind { convex, star, comb, needle };

inline const char* kind_name(polygon_kind k) {
  switch (k) {
    case polygon_kind::convex: return "convex";
    case polygon_kind::star: return "star";
    case polygon_kind::comb: return "comb";
    case polygon_kind::needle: return "needle";
  }
  return "?";
}

namespace detail {

// Unit-size shape of the given kind, centred near the origin, counter-clockwise.
template <class T>
std::vector<vec2<T>> local_shape(rng& g, polygon_kind kind, int n) {
  using std::cos;
  using std::sin;
  const T two_pi = 2 * boost::math::constants::pi<T>();
  std::vector<vec2<T>> out;
  switch (kind) {
    case polygon_kind::convex:
    case polygon_kind::star: {
      std::vector<T> angles;
      for (int i = 0; i < n; ++i) angles.push_back(two_pi * uniform01<T>(g));
      std::sort(angles.begin(), angles.end());
      const T aspect = T(1) / log_uniform<T>(g, 0, 1);  // ellipse axes 1 : [0.1, 1]
      for (const T& a : angles) {
        const T r = kind == polygon_kind::star ? T(T(1) / 5 + uniform01<T>(g) * 4 / 5) : T(1);
        out.push_back({T(r * cos(a)), T(r * aspect * sin(a))});
      }
      break;
    }
    case polygon_kind::comb: {
      const int teeth = std::max(1, (n - 2) / 2);
      const T depth = T(1) / 5 + uniform01<T>(g) * 3 / 5;
      out.push_back({T(0), T(0)});
      out.push_back({T(1), T(0)});
      for (int j = 0; j <= 2 * teeth; ++j) {
        const T x = T(1) - T(j) / T(2 * teeth);
        out.push_back({x, j % 2 == 0 ? T(1) : T(T(1) - depth)});
      }
      break;
    }
    case polygon_kind::needle: {
      const T aspect = log_uniform<T>(g, 2, 6);  // length / width in [1e2, 1e6]
      const T w = T(1) / aspect;
      if (n <= 3) {
        out = {{T(0), T(0)}, {T(1), T(w / 2)}, {T(0), w}};
      } else {
        out = {{T(0), T(0)}, {T(1), T(0)}, {T(1), w}, {T(0), w}};
      }
      break;
    }
  }
  return out;
}

}  // namespace detail

// One random simple polygon. Retries (a rounding that breaks simplicity is
// possible for needles at extreme offsets) are bounded; the loop gives the
// caller a valid polygon or falls back to an unrotated square.
template <class T>
polygon_case<T> random_polygon(rng& g, polygon_kind kind, double max_offset = 1e8) {
  using std::cos;
  using std::ldexp;
  using std::sin;
  using boost::multiprecision::ldexp;
  for (int attempt = 0; attempt < 50; ++attempt) {
    const int n = uniform_int(g, 3, 64);
    std::vector<vec2<T>> local = detail::local_shape<T>(g, kind, n);
    const T size = log_uniform<T>(g, -3, 3);
    const T angle = 2 * boost::math::constants::pi<T>() * uniform01<T>(g);
    const T c = cos(angle), s = sin(angle);
    // Offset magnitude up to max_offset, but keep >= 2^12 ulps across the shape.
    double offset_cap = std::min(max_offset, static_cast<double>(size) * std::ldexp(1.0, digits<T>() - 12));
    const bool far = uniform_int(g, 0, 2) > 0;
    const T offset_mag = far ? log_uniform<T>(g, 0, std::log10(std::max(offset_cap, 1.0))) : T(0);
    const T offset_dir = 2 * boost::math::constants::pi<T>() * uniform01<T>(g);
    const vec2<T> offset{T(offset_mag * cos(offset_dir)), T(offset_mag * sin(offset_dir))};
    std::vector<vec2<T>> v;
    for (const auto& p : local) {
      const T x = size * (c * p.x - s * p.y);
      const T y = size * (s * p.x + c * p.y);
      v.push_back({T(offset.x + x), T(offset.y + y)});
    }
    const bool clockwise = uniform_int(g, 0, 1) == 1;
    if (clockwise) std::reverse(v.begin(), v.end());
    std::rotate(v.begin(), v.begin() + uniform_int(g, 0, static_cast<int>(v.size()) - 1), v.end());
    try {
      require_simple_polygon<T>(v);
    } catch (const invalid_input&) {
      continue;
    }
    std::string label = std::string(kind_name(kind)) + " n=" + std::to_string(v.size()) +
                        " size=" + std::to_string(static_cast<double>(size)) +
                        " offset=" + std::to_string(static_cast<double>(offset_mag)) +
                        (clockwise ? " cw" : " ccw");
    return {label, v};
  }
  return {"fallback square", {{T(0), T(0)}, {T(1), T(0)}, {T(1), T(1)}, {T(0), T(1)}}};
}

// `count` polygons cycling through the kinds, reproducible from `seed`.
template <class T>
std::vector<polygon_case<T>> polygon_corpus(std::uint64_t seed, std::size_t count, double max_offset = 1e8) {
  rng g(seed);
  std::vector<polygon_case<T>> out;
  const polygon_kind kinds[] = {polygon_kind::convex, polygon_kind::star, polygon_kind::comb, polygon_kind::needle};
  for (std::size_t i = 0; i < count; ++i) out.push_back(random_polygon<T>(g, kinds[i % 4], max_offset));
  return out;
}

}  // namespace rigidref::verify
