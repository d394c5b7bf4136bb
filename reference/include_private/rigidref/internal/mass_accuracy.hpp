// Accuracy runs for mass.hpp: each function of each type against its oracle,
// on a reproducible corpus. Shared by `rigidref report` and the test suite,
// so the table a user reads is the table the tests enforce.
#pragma once

#include "rigidref/articles/create_polygon_points.hpp"
#include "rigidref/articles/triangle_inertia.hpp"
#include "rigidref/mass.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/internal/mass_corpus.hpp"
#include "rigidref/verify/mass_oracle.hpp"

#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace rigidref::verify {

// The polygon corpus for T; exact arithmetic has no cos/sin to build it, so
// it takes the double corpus, whose vertices are exact rationals.
template <class T>
std::vector<polygon_case<T>> corpus_in(std::uint64_t seed, std::size_t count) {
  if constexpr (is_exact_v<T>) {
    std::vector<polygon_case<T>> out;
    for (const auto& c : polygon_corpus<double>(seed, count)) {
      polygon_case<T> e{c.label, {}};
      for (const auto& p : c.vertices) e.vertices.push_back({to_exact(p.x), to_exact(p.y)});
      out.push_back(std::move(e));
    }
    return out;
  } else {
    return polygon_corpus<T>(seed, count);
  }
}

// Called after each case with (done, total) for progress reporting.
using progress_fn = std::function<void(std::size_t, std::size_t)>;

template <class T>
std::string describe_polygon(const polygon_case<T>& c) {
  std::string s = c.label + " vertices=[";
  for (std::size_t i = 0; i < c.vertices.size(); ++i)
    s += (i ? ",[" : "[") + to_string(c.vertices[i].x) + "," + to_string(c.vertices[i].y) + "]";
  return s + "]";
}

// Polygon area, centroid, mass, inertia (density given, then mass given).
template <class T>
std::vector<error_stats> polygon_accuracy(std::uint64_t seed, std::size_t count, const progress_fn& progress = {}) {
  error_stats area = make_stats<T>("mass.polygon area");
  error_stats centroid = make_stats<T>("mass.polygon centroid");
  error_stats mass = make_stats<T>("mass.polygon mass");
  error_stats inertia = make_stats<T>("mass.polygon inertia");
  error_stats inertia_m = make_stats<T>("mass.polygon inertia (mass given)");
  rng g(seed ^ 0x5bd1e995u);
  const auto corpus = corpus_in<T>(seed, count);
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    const auto& c = corpus[i];
    const T density = log_uniform<T>(g, -2, 2);
    const auto describe = [&] { return describe_polygon(c) + " density=" + to_string(density); };
    const auto got = polygon_mass_from_density<T>(c.vertices, density);
    const auto want = polygon_mass_oracle<T>(c.vertices, to_exact(density), true);
    area.add(got.area, want.area, describe);
    centroid.add(got.centroid.x, want.centroid.x, describe);
    centroid.add(got.centroid.y, want.centroid.y, describe);
    mass.add(got.mass, want.mass, describe);
    inertia.add(got.inertia, want.inertia, describe);
    const T m = log_uniform<T>(g, -2, 2);
    const auto got_m = polygon_mass_from_mass<T>(c.vertices, m);
    const auto want_m = polygon_mass_oracle<T>(c.vertices, to_exact(m), false);
    inertia_m.add(got_m.inertia, want_m.inertia, [&] { return describe_polygon(c) + " mass=" + to_string(m); });
    if (progress) progress(i + 1, corpus.size());
  }
  return {area, centroid, mass, inertia, inertia_m};
}

// One triangle's error against its distance from the origin (for the
// report's plot): offset = largest |coordinate|, size = bounding-box side.
struct offset_sample {
  std::string type;
  std::string method;  // "reference" or "article"
  double offset_over_size;
  double eps;          // relative error in eps of the type
};

// Triangles (the first three vertices of corpus polygons, so far offsets and
// needles included): the reference formula and the article's (seed 004)
// absolute-coordinate form, both against the exact polygon oracle.
template <class T>
std::vector<error_stats> triangle_accuracy(std::uint64_t seed, std::size_t count,
                                           std::vector<offset_sample>* samples = nullptr) {
  error_stats ref = make_stats<T>("mass.triangle");
  error_stats art = make_stats<T>("mass.triangle (article formula)");
  rng g(seed);
  for (std::size_t i = 0; i < count; ++i) {
    // Needle triangles at every third case, others from the convex generator.
    polygon_case<T> c = corpus_in<T>(g(), 1 + i % 4).back();  // cycles convex, star, comb, needle
    c.vertices.resize(3);
    if (orientation(c.vertices[0], c.vertices[1], c.vertices[2]) == 0) continue;
    const T m = log_uniform<T>(g, -2, 2);
    const exact want = polygon_mass_oracle<T>(c.vertices, to_exact(m), false).inertia;
    const auto describe = [&] { return describe_polygon(c) + " mass=" + to_string(m); };
    const T mine = triangle_inertia<T>(c.vertices, m);
    const T theirs = articles::triangle_inertia<T>(c.vertices, m);
    ref.add(mine, want, describe);
    art.add(theirs, want, describe);
    if (samples && !is_exact_v<T>) {
      double offset = 0, lo_x = 0, hi_x = 0, lo_y = 0, hi_y = 0;
      for (std::size_t k = 0; k < 3; ++k) {
        const double x = static_cast<double>(c.vertices[k].x), y = static_cast<double>(c.vertices[k].y);
        offset = std::max({offset, std::abs(x), std::abs(y)});
        lo_x = k == 0 ? x : std::min(lo_x, x);
        hi_x = k == 0 ? x : std::max(hi_x, x);
        lo_y = k == 0 ? y : std::min(lo_y, y);
        hi_y = k == 0 ? y : std::max(hi_y, y);
      }
      const double size = std::max(hi_x - lo_x, hi_y - lo_y);
      const std::string type(scalar_name<T>());
      samples->push_back({type, "reference", offset / size, relative_error_eps(mine, want)});
      samples->push_back({type, "article", offset / size, relative_error_eps(theirs, want)});
    }
  }
  return {ref, art};
}

// Regular n-gons, n = 3..64 over radii: closed form and the article's
// createPolygonPoints formula against the 230-digit closed form.
template <class T>
std::vector<error_stats> regular_polygon_accuracy(std::uint64_t seed, std::size_t radii_per_n) {
  using std::cos;
  error_stats closed = make_stats<T>("mass.regular_polygon closed form");
  error_stats art = make_stats<T>("mass.regular_polygon (article formula)");
  rng g(seed);
  for (int n = 3; n <= 64; ++n) {
    const oracle_float c = cos(2 * boost::math::constants::pi<oracle_float>() / n);
    for (std::size_t k = 0; k < radii_per_n; ++k) {
      const T radius = log_uniform<T>(g, -3, 3);
      const T m = log_uniform<T>(g, -2, 2);
      const oracle_float r = static_cast<oracle_float>(radius);
      const oracle_float want = static_cast<oracle_float>(m) * r * r * (2 + c) / 6;
      const exact want_q = to_exact(want);
      const auto describe = [&] {
        return "n=" + std::to_string(n) + " radius=" + to_string(radius) + " mass=" + to_string(m);
      };
      closed.add(regular_polygon_inertia<T>(n, radius, m), want_q, describe);
      // The article returns inertia per unit mass; Body multiplies by mass.
      const T per_mass = articles::create_polygon_points<T>({T(0), T(0)}, radius, n).inertia;
      art.add(T(m * per_mass), want_q, describe);
    }
  }
  return {closed, art};
}

// Circle and rectangle against their exact values.
template <class T>
std::vector<error_stats> simple_shape_accuracy(std::uint64_t seed, std::size_t count) {
  error_stats circle = make_stats<T>("mass.circle");
  error_stats rect = make_stats<T>("mass.rectangle");
  error_stats shift = make_stats<T>("mass.parallel_axis");
  rng g(seed);
  for (std::size_t i = 0; i < count; ++i) {
    const T r = log_uniform<T>(g, -3, 3) * (1 + uniform01<T>(g));
    const T w = log_uniform<T>(g, -3, 3) * (1 + uniform01<T>(g));
    const T h = w * log_uniform<T>(g, -6, 0);
    const T m = log_uniform<T>(g, -2, 2) * (1 + uniform01<T>(g));
    const vec2<T> d{T(log_uniform<T>(g, -3, 8) * (uniform01<T>(g) - T(1) / 2)),
                    T(log_uniform<T>(g, -3, 8) * (uniform01<T>(g) - T(1) / 2))};
    const exact R = to_exact(r), W = to_exact(w), H = to_exact(h), M = to_exact(m);
    circle.add(circle_inertia<T>(r, m), M * R * R / 2, [&] { return "radius=" + to_string(r) + " mass=" + to_string(m); });
    rect.add(rectangle_inertia<T>(w, h, m), M * (W * W + H * H) / 12,
             [&] { return "width=" + to_string(w) + " height=" + to_string(h) + " mass=" + to_string(m); });
    const exact Ic = M * R * R / 2;
    const T ic = round_to<T>(Ic);
    shift.add(parallel_axis<T>(ic, m, d), to_exact(ic) + M * length_squared(vec2<exact>{to_exact(d.x), to_exact(d.y)}),
              [&] { return "inertia=" + to_string(ic) + " mass=" + to_string(m) + " offset=[" + to_string(d.x) + "," + to_string(d.y) + "]"; });
  }
  return {circle, rect, shift};
}

}  // namespace rigidref::verify
