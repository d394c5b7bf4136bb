// SVG pictures of scene runs (scene/plot.hpp).
#include "scene/plot.hpp"
#include "report/html_escape.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace rigidref::tools {
namespace {

using P = vec2<double>;

const char* standalone_style =
    "<style>.grid{stroke:#e4e4e4}.tick,.legend{font-size:11px;font-family:sans-serif}.tick{text-anchor:middle}"
    ".ytick{font-size:11px;font-family:sans-serif;text-anchor:end}"
    ".label{font-size:12px;font-family:sans-serif;text-anchor:middle}</style>\n";

std::string open_svg(double w, double h, const std::string& aria, bool standalone) {
  std::ostringstream s;
  if (standalone) s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << w << " " << h << "\" width=\"" << w
    << "\" height=\"" << h << "\" role=\"img\" aria-label=\"" << html_escape(aria) << "\">\n";
  if (standalone) s << standalone_style << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  return s.str();
}

bool finite(const P& p) { return std::isfinite(p.x) && std::isfinite(p.y); }

struct box {
  double x0 = std::numeric_limits<double>::infinity(), y0 = x0, x1 = -x0, y1 = -x0;
  void add(const P& p) {
    if (!finite(p)) return;
    x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  }
  bool empty() const { return !(x0 <= x1 && y0 <= y1); }
};

// The part of the rectangle `b` inside the wall (dot(n, p - o) <= 0):
// one Sutherland-Hodgman pass over the rectangle's four corners.
std::vector<P> solid_side(const box& b, const P& o, const P& n) {
  const std::vector<P> rect{{b.x0, b.y0}, {b.x1, b.y0}, {b.x1, b.y1}, {b.x0, b.y1}};
  auto side = [&](const P& p) { return n.x * (p.x - o.x) + n.y * (p.y - o.y); };
  std::vector<P> out;
  for (std::size_t i = 0; i < rect.size(); ++i) {
    const P& a = rect[i];
    const P& c = rect[(i + 1) % rect.size()];
    const double sa = side(a), sc = side(c);
    if (sa <= 0) out.push_back(a);
    if ((sa < 0 && sc > 0) || (sa > 0 && sc < 0)) {
      const double t = sa / (sa - sc);
      out.push_back({a.x + t * (c.x - a.x), a.y + t * (c.y - a.y)});
    }
  }
  return out;
}

// Ticks at 1, 2 or 5 times a power of ten, about `count` of them over [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int count) {
  const double raw = (hi - lo) / count;
  if (!(raw > 0) || !std::isfinite(raw)) return {lo};
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
  std::vector<double> t;
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) t.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
  return t;
}

std::string fmt(double v) {
  std::ostringstream s;
  s << std::setprecision(4) << v;
  return s.str();
}

}  // namespace

std::string trajectory_svg(const std::vector<scene_plot_run>& runs, const std::string& title, int stride,
                           bool standalone) {
  box b;
  for (const auto& r : runs)
    for (const auto& f : r.frames)
      for (const auto& body : f.bodies)
        for (const auto& p : body.world_shape) b.add(p);
  if (b.empty()) b = {-1, -1, 1, 1};
  const double margin = 0.05 * std::max(b.x1 - b.x0, b.y1 - b.y0) + 0.5;
  b.x0 -= margin, b.y0 -= margin, b.x1 += margin, b.y1 += margin;
  const double w = 720, top = 24, legend = 18 * static_cast<double>(runs.size()) + 8;
  const double scale = w / (b.x1 - b.x0);
  const double plot_h = std::clamp((b.y1 - b.y0) * scale, 160.0, 900.0);
  const double h = top + plot_h + legend;
  auto px = [&](const P& p) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << (p.x - b.x0) * scale << "," << top + (b.y1 - p.y) * scale;
    return s.str();
  };
  std::ostringstream s;
  s << open_svg(w, h, title, standalone);
  s << "<text x=\"" << w / 2 << "\" y=\"16\" class=\"label\">" << html_escape(title) << "</text>\n";
  // Walls: the solid side of each, shaded, from the first run's first frame.
  if (!runs.empty() && !runs[0].frames.empty())
    for (const auto& wall : runs[0].frames[0].walls) {
      const auto poly = solid_side(b, wall.position, wall.normal);
      if (poly.size() < 3) continue;
      s << "<polygon points=\"";
      for (const auto& p : poly) s << px(p) << " ";
      s << "\" fill=\"#d9d9d9\" fill-opacity=\"0.6\" stroke=\"none\"/>\n";
    }
  for (const auto& r : runs) {
    if (r.frames.empty()) continue;
    const std::size_t nb = r.frames[0].bodies.size();
    for (std::size_t i = 0; i < nb; ++i) {
      // Centre track, broken where a value is not finite.
      s << "<polyline fill=\"none\" stroke=\"" << r.colour << "\" stroke-width=\"1.2\" points=\"";
      for (const auto& f : r.frames)
        if (i < f.bodies.size() && finite(f.bodies[i].pos)) s << px(f.bodies[i].pos) << " ";
      s << "\"/>\n";
      for (std::size_t k = 0; k < r.frames.size(); ++k) {
        const bool last = k + 1 == r.frames.size();
        if (!last && (stride <= 0 || k % static_cast<std::size_t>(stride) != 0)) continue;
        if (i >= r.frames[k].bodies.size()) continue;
        s << "<polygon fill=\"none\" stroke=\"" << r.colour << "\" stroke-opacity=\"" << (last ? "1" : "0.3")
          << "\" stroke-width=\"" << (last ? "1.6" : "0.8") << "\" points=\"";
        for (const auto& p : r.frames[k].bodies[i].world_shape)
          if (finite(p)) s << px(p) << " ";
        s << "\"/>\n";
      }
    }
  }
  double ly = top + plot_h + 14;
  for (const auto& r : runs) {
    s << "<line x1=\"10\" y1=\"" << ly - 4 << "\" x2=\"30\" y2=\"" << ly - 4 << "\" stroke=\"" << r.colour
      << "\" stroke-width=\"2\"/><text x=\"36\" y=\"" << ly << "\" class=\"legend\">" << html_escape(r.label)
      << " (outlines every " << stride << " steps, solid: step " << (r.frames.empty() ? 0 : r.frames.back().step)
      << ")</text>\n";
    ly += 18;
  }
  s << "</svg>\n";
  return s.str();
}

std::string line_chart_svg(const std::vector<plot_series>& series, const std::string& title, const std::string& ylabel,
                           bool standalone) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  int steps = 1;
  for (const auto& r : series)
    for (const auto& [k, v] : r.points) {
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v), hi = std::max(hi, v);
      steps = std::max(steps, k);
    }
  if (!(lo <= hi)) lo = 0, hi = 1;
  if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) lo -= 0.5, hi += 0.5;
  const double pad = 0.05 * (hi - lo);
  lo -= pad, hi += pad;
  const double w = 720, h = 340, left = 70, right = 20, top = 28, bottom = 46 + 16 * static_cast<double>(series.size());
  auto px = [&](double x) { return left + (w - left - right) * x / steps; };
  auto py = [&](double y) { return h - bottom - (h - top - bottom) * (y - lo) / (hi - lo); };
  std::ostringstream s;
  s << open_svg(w, h, title, standalone) << std::fixed << std::setprecision(2);
  s << "<text x=\"" << w / 2 << "\" y=\"16\" class=\"label\">" << html_escape(title) << "</text>\n";
  for (double t : nice_ticks(lo, hi, 6))
    s << "<line x1=\"" << left << "\" y1=\"" << py(t) << "\" x2=\"" << w - right << "\" y2=\"" << py(t)
      << "\" class=\"grid\"/><text x=\"" << left - 6 << "\" y=\"" << py(t) + 4 << "\" class=\"ytick\">" << fmt(t)
      << "</text>\n";
  for (double t : nice_ticks(0, steps, 8))
    s << "<line x1=\"" << px(t) << "\" y1=\"" << top << "\" x2=\"" << px(t) << "\" y2=\"" << h - bottom
      << "\" class=\"grid\"/><text x=\"" << px(t) << "\" y=\"" << h - bottom + 16 << "\" class=\"tick\">" << fmt(t)
      << "</text>\n";
  s << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - bottom + 32
    << "\" class=\"label\">step (dt = 0.02 s)</text>\n";
  s << "<text x=\"14\" y=\"" << (top + h - bottom) / 2 << "\" class=\"label\" transform=\"rotate(-90 14 "
    << (top + h - bottom) / 2 << ")\">" << html_escape(ylabel) << "</text>\n";
  for (std::size_t r = 0; r < series.size(); ++r) {
    s << "<polyline fill=\"none\" stroke=\"" << series[r].colour << "\" stroke-width=\"1.4\" points=\"";
    for (const auto& [k, v] : series[r].points)
      if (std::isfinite(v)) s << px(k) << "," << py(v) << " ";
    s << "\"/>\n";
    const double ly = h - bottom + 50 + 16 * static_cast<double>(r);  // below the axis label
    s << "<line x1=\"" << left << "\" y1=\"" << ly - 4 << "\" x2=\"" << left + 20 << "\" y2=\"" << ly - 4
      << "\" stroke=\"" << series[r].colour << "\" stroke-width=\"2\"/><text x=\"" << left + 26 << "\" y=\"" << ly
      << "\" class=\"legend\">" << html_escape(series[r].label) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

std::string scatter_svg(const std::vector<scatter_series>& series, const std::string& title, const std::string& xlabel,
                        const std::string& ylabel, bool diagonal, bool standalone, double at_least) {
  // One range for both axes, so that y = x is the diagonal of the square.
  double lo = std::min(0.0, at_least), hi = std::max(0.0, at_least);
  for (const auto& r : series)
    for (const auto& [x, y] : r.points)
      if (std::isfinite(x) && std::isfinite(y)) lo = std::min({lo, x, y}), hi = std::max({hi, x, y});
  if (hi - lo < 1e-12) lo -= 0.5, hi += 0.5;
  const double pad = 0.05 * (hi - lo);
  lo -= pad, hi += pad;
  const double side = 360, left = 70, top = 28, right = 20, bottom = 46;
  const double legend = 16 * static_cast<double>(series.size()) + 8;
  const double w = left + side + right, h = top + side + bottom + legend;
  auto px = [&](double x) { return left + side * (x - lo) / (hi - lo); };
  auto py = [&](double y) { return top + side - side * (y - lo) / (hi - lo); };
  std::ostringstream s;
  s << open_svg(w, h, title, standalone) << std::fixed << std::setprecision(2);
  s << "<text x=\"" << w / 2 << "\" y=\"16\" class=\"label\">" << html_escape(title) << "</text>\n";
  for (double t : nice_ticks(lo, hi, 6)) {
    s << "<line x1=\"" << left << "\" y1=\"" << py(t) << "\" x2=\"" << left + side << "\" y2=\"" << py(t)
      << "\" class=\"grid\"/><text x=\"" << left - 6 << "\" y=\"" << py(t) + 4 << "\" class=\"ytick\">" << fmt(t)
      << "</text>\n";
    s << "<line x1=\"" << px(t) << "\" y1=\"" << top << "\" x2=\"" << px(t) << "\" y2=\"" << top + side
      << "\" class=\"grid\"/><text x=\"" << px(t) << "\" y=\"" << top + side + 16 << "\" class=\"tick\">" << fmt(t)
      << "</text>\n";
  }
  s << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << side << "\" height=\"" << side
    << "\" fill=\"none\" stroke=\"#999\"/>\n";
  if (diagonal)
    s << "<line x1=\"" << px(lo) << "\" y1=\"" << py(lo) << "\" x2=\"" << px(hi) << "\" y2=\"" << py(hi)
      << "\" stroke=\"#555\" stroke-dasharray=\"4 3\" class=\"diagonal\"/>\n";
  s << "<text x=\"" << left + side / 2 << "\" y=\"" << top + side + 34 << "\" class=\"label\">" << html_escape(xlabel)
    << "</text>\n";
  s << "<text x=\"14\" y=\"" << top + side / 2 << "\" class=\"label\" transform=\"rotate(-90 14 " << top + side / 2
    << ")\">" << html_escape(ylabel) << "</text>\n";
  for (const auto& r : series)
    for (const auto& [x, y] : r.points)
      if (std::isfinite(x) && std::isfinite(y))
        s << "<circle cx=\"" << px(x) << "\" cy=\"" << py(y) << "\" r=\"2.5\" fill=\"" << r.colour
          << "\" fill-opacity=\"0.6\"/>\n";
  double ly = top + side + bottom + 12;
  for (const auto& r : series) {
    s << "<circle cx=\"" << left + 6 << "\" cy=\"" << ly - 4 << "\" r=\"4\" fill=\"" << r.colour << "\"/><text x=\""
      << left + 16 << "\" y=\"" << ly << "\" class=\"legend\">" << html_escape(r.label) << " (" << r.points.size()
      << ")</text>\n";
    ly += 16;
  }
  s << "</svg>\n";
  return s.str();
}

std::string xy_chart_svg(const std::vector<xy_series>& series, const std::string& title, const std::string& xlabel,
                         const std::string& ylabel, bool standalone) {
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = 0, y1 = 0;
  for (const auto& r : series)
    for (const auto& [x, y] : r.points)
      if (std::isfinite(x) && std::isfinite(y)) x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
  if (!(x0 <= x1)) x0 = 0, x1 = 1;
  if (x1 - x0 <= 0) x1 = x0 + 1;
  if (y1 - y0 < 1e-300) y0 -= 0.5, y1 += 0.5;
  const double pad = 0.05 * (y1 - y0);
  y0 -= pad, y1 += pad;
  // The legend: each distinct (label, colour, dash) once, in first-seen order.
  std::vector<const xy_series*> legend;
  for (const auto& r : series)
    if (std::none_of(legend.begin(), legend.end(), [&](const xy_series* l) {
          return l->label == r.label && l->colour == r.colour && l->dashed == r.dashed;
        }))
      legend.push_back(&r);
  const double w = 720, h = 340 + 16 * static_cast<double>(legend.size()), left = 80, right = 20, top = 28;
  const double bottom = 46 + 16 * static_cast<double>(legend.size());
  auto px = [&](double x) { return left + (w - left - right) * (x - x0) / (x1 - x0); };
  auto py = [&](double y) { return h - bottom - (h - top - bottom) * (y - y0) / (y1 - y0); };
  std::ostringstream s;
  s << open_svg(w, h, title, standalone) << std::fixed << std::setprecision(2);
  s << "<text x=\"" << w / 2 << "\" y=\"16\" class=\"label\">" << html_escape(title) << "</text>\n";
  for (double t : nice_ticks(y0, y1, 6))
    s << "<line x1=\"" << left << "\" y1=\"" << py(t) << "\" x2=\"" << w - right << "\" y2=\"" << py(t)
      << "\" class=\"grid\"/><text x=\"" << left - 6 << "\" y=\"" << py(t) + 4 << "\" class=\"ytick\">" << fmt(t)
      << "</text>\n";
  for (double t : nice_ticks(x0, x1, 8))
    s << "<line x1=\"" << px(t) << "\" y1=\"" << top << "\" x2=\"" << px(t) << "\" y2=\"" << h - bottom
      << "\" class=\"grid\"/><text x=\"" << px(t) << "\" y=\"" << h - bottom + 16 << "\" class=\"tick\">" << fmt(t)
      << "</text>\n";
  s << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - bottom + 32 << "\" class=\"label\">"
    << html_escape(xlabel) << "</text>\n";
  s << "<text x=\"14\" y=\"" << (top + h - bottom) / 2 << "\" class=\"label\" transform=\"rotate(-90 14 "
    << (top + h - bottom) / 2 << ")\">" << html_escape(ylabel) << "</text>\n";
  for (const auto& r : series) {
    s << "<polyline fill=\"none\" stroke=\"" << r.colour << "\" stroke-width=\"1.4\""
      << (r.dashed ? " stroke-dasharray=\"5 3\" class=\"dashed\"" : "") << " points=\"";
    for (const auto& [x, y] : r.points)
      if (std::isfinite(x) && std::isfinite(y)) s << px(x) << "," << py(y) << " ";
    s << "\"/>\n";
  }
  double ly = h - bottom + 50;
  for (const xy_series* r : legend) {
    s << "<line x1=\"" << left << "\" y1=\"" << ly - 4 << "\" x2=\"" << left + 20 << "\" y2=\"" << ly - 4
      << "\" stroke=\"" << r->colour << "\" stroke-width=\"2\"" << (r->dashed ? " stroke-dasharray=\"5 3\"" : "")
      << "/><text x=\"" << left + 26 << "\" y=\"" << ly << "\" class=\"legend\">" << html_escape(r->label) << "</text>\n";
    ly += 16;
  }
  s << "</svg>\n";
  return s.str();
}

std::string energy_svg(const std::vector<scene_plot_run>& runs, double g, const std::string& title, bool standalone) {
  std::vector<plot_series> series;
  for (const auto& r : runs) {
    plot_series e{r.label, r.colour, {}};
    for (const auto& f : r.frames) e.points.push_back({f.step, scene_energy(f, g)});
    series.push_back(std::move(e));
  }
  return line_chart_svg(series, title, "energy (J): kinetic + rotational + m g y", standalone);
}

}  // namespace rigidref::tools
