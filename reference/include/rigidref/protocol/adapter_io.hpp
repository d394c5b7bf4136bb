// The shared loop of an engine adapter: a program that reads eval request
// lines (docs/eval-protocol.md) on standard input, lets an engine answer the
// ops it has, and writes one answer line per request line for
// `rigidref check`. rigidref's own adapters (tools/adapters/) use it, and so
// can yours: link rigidref::protocol (it needs nlohmann_json) and call
// run_adapter with one handler per op. POSIX only (isolation forks).
//
// An answer line (docs/eval-protocol.md section 4) is the request's own
// fields, unchanged except for rounding the inputs to the engine's precision,
// plus only:
//   "engine", "precision"  set by run_adapter;
//   "result"               ONLY the op's result fields (section 3); any other
//                          key fails the case in check;
//   "error"                {"code", "message"} instead of a result (answer
//                          maps the exceptions below to codes);
//   "allowances"           optional {"name": number};
//   "diagnostics"          optional, free-form, ignored by the judge:
//                          everything else an adapter reports (vertices used,
//                          iterations, engine settings, ...). Any change the
//                          engine made to an input beyond rounding goes in
//                          diagnostics.input_changes, {"<input field>":
//                          "<what and why>"} (declare_input_change); an
//                          undeclared change fails the case.
#pragma once

#include <nlohmann/json.hpp>

#include "rigidref/errors.hpp"
#include "rigidref/predicates.hpp"
#include "rigidref/protocol/limits.hpp"
#include "rigidref/vec2.hpp"

#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <cerrno>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::protocol {

using ojson = nlohmann::ordered_json;

// The engine does not take this case (too many vertices, not convex, beyond
// float's range, ...): answered as error "unsupported" and counted as
// skipped, not failed.
struct unsupported_case : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The engine ran but reports that it failed (e.g. GJK hit its iteration
// cap): answered with `code` (no_convergence, ...), counted as failed.
struct engine_error : std::runtime_error {
  std::string code;
  engine_error(std::string c, const std::string& message) : std::runtime_error(message), code(std::move(c)) {}
};

// One op of an engine: reads the request, may round its inputs to the
// engine's precision, fills "result" (and "allowances", "diagnostics").
using op_handler = std::function<void(ojson& line)>;

// ---- diagnostics -------------------------------------------------------------

// The line's "diagnostics" object (made on first use).
inline ojson& diagnostics(ojson& line) {
  ojson& d = line["diagnostics"];
  if (!d.is_object()) d = ojson::object();
  return d;
}

// Declares that the engine used input `field` (a top-level field of the
// request: "vertices", "a", "body1", "restitution", ...) changed beyond
// rounding, and why. A second declaration for the same field is appended.
inline void declare_input_change(ojson& line, const std::string& field, const std::string& reason) {
  ojson& changes = diagnostics(line)["input_changes"];
  if (!changes.is_object()) changes = ojson::object();
  ojson& entry = changes[field];
  entry = entry.is_string() ? ojson(entry.get<std::string>() + "; " + reason) : ojson(reason);
}

// ---- numbers and points ------------------------------------------------------

inline double number(const ojson& v, const char* what) {
  if (!v.is_number()) throw std::invalid_argument(std::string(what) + ": expected a number");
  return v.get<double>();
}

struct point {
  double x, y;
};

inline double finite_number(const ojson& v, const std::string& what) {
  const double x = number(v, what.c_str());
  if (!std::isfinite(x)) throw std::invalid_argument(what + ": not a finite number");
  return x;
}

inline point finite_point(const ojson& v, const std::string& what) {
  if (!v.is_array() || v.size() != 2) throw std::invalid_argument(what + ": expected [x, y]");
  return {finite_number(v[0], what), finite_number(v[1], what)};
}

inline std::vector<point> points(const ojson& list, const char* what) {
  if (!list.is_array()) throw std::invalid_argument(std::string(what) + ": expected a list of [x, y]");
  std::vector<point> out;
  for (const ojson& p : list) {
    if (!p.is_array() || p.size() != 2) throw std::invalid_argument(std::string(what) + ": expected [x, y] pairs");
    out.push_back({number(p[0], what), number(p[1], what)});
  }
  return out;
}

inline ojson points_json(const std::vector<point>& v) {
  ojson list = ojson::array();
  for (const point& p : v) list.push_back(ojson::array({p.x, p.y}));
  return list;
}

inline ojson vec_json(double x, double y) { return ojson::array({x, y}); }

// x rounded to float (what a float engine is given), back in a double,
// exactly. A finite x beyond float's range would become infinite: the
// engine cannot take that case.
inline double to_float(double x, const std::string& what = "a number") {
  const float f = static_cast<float>(x);  // IEEE: rounds, or overflows to inf (not UB)
  if (std::isinf(f) && !std::isinf(x))
    throw unsupported_case(what + ": " + ojson(x).dump() + " is beyond float's range (the engine computes in float)");
  return static_cast<double>(f);
}

// Each coordinate rounded to float, as above.
inline std::vector<point> to_float_grid(std::vector<point> v, const std::string& what = "a coordinate") {
  for (point& p : v) p = {to_float(p.x, what), to_float(p.y, what)};
  return v;
}

// The density of a mass.polygon request (default 1; finite and > 0, as eval
// requires). A request that gives the total "mass" instead is unsupported:
// an engine adapter sets a density.
inline double polygon_density(const ojson& line) {
  if (line.contains("mass")) throw unsupported_case("this adapter takes \"density\", not the total \"mass\"");
  if (!line.contains("density")) return 1.0;
  const double density = finite_number(line["density"], "density");
  if (!(density > 0)) throw std::invalid_argument("density: must be > 0");
  return density;
}

// ---- shapes ------------------------------------------------------------------

// The collision ops' shapes (the protocol additions): a core (polygon,
// point, segment) grown by a radius. `form` remembers how the request wrote
// it, so that an answer line can give it back with the values the engine
// used (shape_json).
struct shape {
  enum class kind { polygon, circle, point, segment };
  kind form = kind::polygon;
  std::vector<point> core;  // polygon vertices, the circle's centre, the point, the two endpoints
  double radius = 0;        // the rounding radius (0 for a plain polygon, point or segment)
  bool rounded_polygon = false;  // {"vertices", "radius"} rather than a plain list
  bool radius_given = false;     // a rounded polygon or a segment written with "radius"
};

inline double radius_of(const ojson& v, const std::string& what) {
  const double r = finite_number(v.at("radius"), what + ".radius");
  if (r < 0) throw std::invalid_argument(what + ".radius: must be >= 0");
  return r;
}

// Reads a shape; bad JSON, non-finite numbers and negative radii are
// invalid input. Polygons are checked for convexity by the ops that need it
// (each engine has its own rule), not here.
inline shape parse_shape(const ojson& v, const std::string& what) {
  shape s;
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) s.core.push_back(finite_point(v[i], what));
    if (s.core.size() < 3) throw std::invalid_argument(what + ": a polygon needs 3 or more vertices");
    return s;
  }
  if (!v.is_object()) throw std::invalid_argument(what + ": expected a shape");
  if (v.contains("vertices")) {
    const ojson& list = v["vertices"];
    if (!list.is_array()) throw std::invalid_argument(what + ".vertices: expected a list of [x, y]");
    for (std::size_t i = 0; i < list.size(); ++i) s.core.push_back(finite_point(list[i], what));
    if (s.core.size() < 3) throw std::invalid_argument(what + ": a polygon needs 3 or more vertices");
    s.rounded_polygon = true;
    s.radius_given = v.contains("radius");
    s.radius = s.radius_given ? radius_of(v, what) : 0.0;
    return s;
  }
  if (v.contains("center")) {
    s.form = shape::kind::circle;
    s.core = {finite_point(v["center"], what + ".center")};
    s.radius = radius_of(v, what);
    s.radius_given = true;
    return s;
  }
  if (v.contains("point")) {
    s.form = shape::kind::point;
    s.core = {finite_point(v["point"], what + ".point")};
    return s;
  }
  if (v.contains("segment")) {
    s.form = shape::kind::segment;
    const ojson& ends = v["segment"];
    if (!ends.is_array() || ends.size() != 2) throw std::invalid_argument(what + ".segment: expected [[x1, y1], [x2, y2]]");
    s.core = {finite_point(ends[0], what + ".segment"), finite_point(ends[1], what + ".segment")};
    if (s.core[0].x == s.core[1].x && s.core[0].y == s.core[1].y)
      throw std::invalid_argument(what + ".segment: the endpoints must differ");
    s.radius_given = v.contains("radius");
    s.radius = s.radius_given ? radius_of(v, what) : 0.0;
    return s;
  }
  throw std::invalid_argument(what + ": expected a polygon, {\"vertices\", \"radius\"}, {\"center\", \"radius\"}, "
                                     "{\"point\"} or {\"segment\", \"radius\"}");
}

// The shape as the request wrote it (`original`, the field's JSON: its
// other keys are kept), with the values in `s`: an input the engine used.
inline ojson shape_json(const shape& s, const ojson& original) {
  if (s.form == shape::kind::polygon && !s.rounded_polygon) return points_json(s.core);
  ojson out = original.is_object() ? original : ojson::object();
  switch (s.form) {
    case shape::kind::polygon: out["vertices"] = points_json(s.core); break;
    case shape::kind::circle: out["center"] = vec_json(s.core[0].x, s.core[0].y); break;
    case shape::kind::point: out["point"] = vec_json(s.core[0].x, s.core[0].y); break;
    case shape::kind::segment: out["segment"] = points_json(s.core); break;
  }
  if (s.radius_given) out["radius"] = s.radius;
  return out;
}

// The shape with every number rounded to float (what a float engine is
// given); unsupported_case beyond float's range.
inline shape to_float_shape(shape s, const std::string& what = "a shape") {
  s.core = to_float_grid(s.core, what);
  s.radius = to_float(s.radius, what + ".radius");
  return s;
}

// Convex (every turn the same way or straight, one turn around in all) and
// not all on one line, by the exact orientation predicate on the doubles:
// what the protocol calls a convex polygon. Repeated and collinear vertices
// are allowed, as in `rigidref eval`.
inline bool convex_polygon(const std::vector<point>& v) {
  const std::size_t n = v.size();
  if (n < 3) return false;
  int sign = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const point& p = v[i];
    const point& q = v[(i + 1) % n];
    const point& r = v[(i + 2) % n];
    const int o = rigidref::orientation(rigidref::vec2<double>{p.x, p.y}, rigidref::vec2<double>{q.x, q.y},
                                        rigidref::vec2<double>{r.x, r.y});
    if (o != 0 && sign != 0 && o != sign) return false;
    if (o != 0) sign = o;
  }
  if (sign == 0) return false;  // all on one line: no area
  // Same-way turns can still wind twice (a pentagram): a convex polygon's
  // edges change their x and their y direction at most twice each.
  for (const bool along_x : {true, false}) {
    int changes = 0, last = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double d = along_x ? v[(i + 1) % n].x - v[i].x : v[(i + 1) % n].y - v[i].y;
      const int s = d > 0 ? 1 : d < 0 ? -1 : 0;
      if (s == 0) continue;
      if (last != 0 && s != last) ++changes;
      last = s;
    }
    int first = 0;  // close the cycle: the last direction against the first
    for (std::size_t i = 0; i < n && first == 0; ++i) {
      const double d = along_x ? v[(i + 1) % n].x - v[i].x : v[(i + 1) % n].y - v[i].y;
      first = d > 0 ? 1 : d < 0 ? -1 : 0;
    }
    if (last != 0 && first != 0 && last != first) ++changes;
    if (changes > 2) return false;
  }
  return true;
}

// Whether `used` is `given` up to where the cycle starts and its
// orientation (the same polygon, as an engine may store it).
inline bool same_cycle(const std::vector<point>& given, const std::vector<point>& used) {
  const std::size_t n = given.size();
  if (used.size() != n) return false;
  const auto eq = [](const point& p, const point& q) { return p.x == q.x && p.y == q.y; };
  for (std::size_t shift = 0; shift < n; ++shift) {
    bool forward = true, backward = true;
    for (std::size_t i = 0; i < n && (forward || backward); ++i) {
      if (!eq(given[i], used[(shift + i) % n])) forward = false;
      if (!eq(given[i], used[(shift + n - i % n) % n])) backward = false;
    }
    if (forward || backward) return true;
  }
  return false;
}

// What engine function `call` did to a polygon, for declare_input_change:
// "" when it kept it (same_cycle), else how many vertices it used, dropped
// and added, and the vertices it used.
inline std::string polygon_change(const std::vector<point>& given, const std::vector<point>& used,
                                  const std::string& call) {
  if (same_cycle(given, used)) return "";
  const auto count_missing = [](const std::vector<point>& from, const std::vector<point>& in) {
    std::size_t missing = 0;
    for (const point& p : from) {
      bool found = false;
      for (const point& q : in) found = found || (p.x == q.x && p.y == q.y);
      if (!found) ++missing;
    }
    return missing;
  };
  const std::size_t dropped = count_missing(given, used), added = count_missing(used, given);
  std::string text = call + " used " + std::to_string(used.size()) + " of the " + std::to_string(given.size()) +
                     " vertices given";
  if (dropped > 0) text += ", dropped " + std::to_string(dropped);
  if (added > 0) text += ", added " + std::to_string(added) + " not given";
  if (dropped == 0 && added == 0) text += ", re-ordered";
  return text + "; vertices used: " + points_json(used).dump();
}

// ---- the loop ----------------------------------------------------------------

// The JSON text of an answer line. Bytes that are not UTF-8 (a parse error's
// message quotes the bytes it read) become U+FFFD instead of an exception.
inline std::string line_text(const ojson& line) { return line.dump(-1, ' ', false, ojson::error_handler_t::replace); }

// Answers one line in place (result or error). Exceptions become error codes:
// unsupported_case and rigidref::unsupported "unsupported", engine_error its
// code, rigidref::domain_error "domain_error", rigidref::no_convergence
// "no_convergence", anything else "invalid_input".
inline void answer(ojson& line, const std::map<std::string, op_handler>& ops) {
  const auto fail = [&line](const char* code, const char* message) {
    line.erase("result");
    line["error"] = {{"code", code}, {"message", message}};
  };
  try {
    // "op" may be any JSON value: a non-string names no op this adapter runs.
    const auto field = line.find("op");
    const std::string op = field == line.end() ? "" : field->is_string() ? field->get<std::string>() : field->dump();
    const auto it = ops.find(op);
    if (it == ops.end()) throw unsupported_case("this adapter does not run op \"" + op + "\"");
    it->second(line);
  } catch (const unsupported_case& e) {
    fail("unsupported", e.what());
  } catch (const rigidref::unsupported& e) {
    fail("unsupported", e.what());
  } catch (const engine_error& e) {
    fail(e.code.c_str(), e.what());
  } catch (const rigidref::domain_error& e) {
    fail("domain_error", e.what());
  } catch (const rigidref::no_convergence& e) {
    fail("no_convergence", e.what());
  } catch (const std::exception& e) {
    fail("invalid_input", e.what());
  }
}

// How run_adapter keeps an engine that aborts (a failed assertion) or hangs
// from ending the adapter: such a case is answered with error code
// "crashed" (killed by a signal, or no answer within the time limit), and
// the cases after it are answered as usual.
enum class isolation {
  none,      // every case in the adapter's own process: an abort ends the adapter
  per_case,  // each case in a fresh child process (a fork per case): nothing an
             // engine leaves behind (globals, corrupted memory) reaches the next case
  worker,    // the cases in one child process, one after another; after a crash a
             // fresh child takes the next case. The engine's state carries from
             // case to case, as in the engine's own programs; no fork per case
};

namespace isolation_detail {

// "crashed", and how: from the status of the child that ended.
inline ojson crashed_error(int status, unsigned seconds) {
  const std::string how = WIFEXITED(status)              ? "exit status " + std::to_string(WEXITSTATUS(status))
                          : WTERMSIG(status) == SIGALRM ? "no answer within " + std::to_string(seconds) + " s"
                                                        : "signal " + std::to_string(WTERMSIG(status));
  return {{"code", "crashed"}, {"message", "the engine aborted on this case (" + how + ")"}};
}

inline bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// One '\n'-terminated line from fd into `text`, without the '\n'; `pending`
// keeps what was read past it. False at end of file or on an error.
inline bool read_line(int fd, std::string& pending, std::string& text) {
  for (std::size_t searched = 0;;) {
    if (const std::size_t end = pending.find('\n', searched); end != std::string::npos) {
      text.assign(pending, 0, end);
      pending.erase(0, end + 1);
      return true;
    }
    searched = pending.size();
    char chunk[65536];
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    pending.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace isolation_detail

// A child process that answers cases: it reads request lines from a pipe
// and writes each answer line back, until the pipe closes. A case that
// aborts or runs past `seconds` (SIGALRM) ends it, and is answered
// "crashed"; the next case starts a new one. isolation::worker keeps one for
// the whole run, isolation::per_case one per case (answer_isolated).
class case_worker {
 public:
  // `out`: the adapter's answer stream, flushed before each fork so that a
  // child does not inherit unwritten answers.
  case_worker(const std::map<std::string, op_handler>& ops, unsigned seconds, std::ostream& out = std::cout)
      : ops_(ops), seconds_(seconds), out_(out) {}
  case_worker(const case_worker&) = delete;
  case_worker& operator=(const case_worker&) = delete;
  ~case_worker() { stop(); }

  void answer(ojson& line) {
    if (pid_ < 0) start();
    std::string reply;
    if (isolation_detail::write_all(requests_, line_text(line) + '\n') &&
        isolation_detail::read_line(answers_, pending_, reply)) {
      line = ojson::parse(reply);
      return;
    }
    line.erase("result");
    line["error"] = isolation_detail::crashed_error(stop(), seconds_);
  }

 private:
  void start() {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0) throw std::runtime_error("pipe failed");
    if (pipe(from_child) != 0) {
      close(to_child[0]);
      close(to_child[1]);
      throw std::runtime_error("pipe failed");
    }
    out_.flush();
    std::cout.flush();
    const pid_t child = fork();
    if (child < 0) throw std::runtime_error("fork failed");
    if (child == 0) {
      close(to_child[1]);
      close(from_child[0]);
      serve(to_child[0], from_child[1]);
    }
    close(to_child[0]);
    close(from_child[1]);
    pid_ = child;
    requests_ = to_child[1];
    answers_ = from_child[0];
    pending_.clear();
  }

  [[noreturn]] void serve(int requests, int answers) {
    try {
      std::string pending, text;
      while (isolation_detail::read_line(requests, pending, text)) {
        ojson line = ojson::parse(text);
        alarm(seconds_);  // SIGALRM ends a query that hangs
        protocol::answer(line, ops_);
        alarm(0);
        if (!isolation_detail::write_all(answers, line_text(line) + '\n')) _exit(3);
      }
      _exit(0);
    } catch (...) {
      _exit(4);
    }
  }

  // Ends the worker (it exits at the end of its requests, or has ended);
  // returns its wait status.
  int stop() {
    if (pid_ < 0) return 0;
    close(requests_);
    close(answers_);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return status;
  }

  // SIGPIPE ignored while a worker lives: a request written to a child that
  // ended fails instead of ending the adapter (restored after).
  struct ignore_sigpipe {
    void (*old)(int) = std::signal(SIGPIPE, SIG_IGN);
    ~ignore_sigpipe() { std::signal(SIGPIPE, old); }
  };

  ignore_sigpipe sigpipe_;
  const std::map<std::string, op_handler>& ops_;
  unsigned seconds_;
  std::ostream& out_;
  pid_t pid_ = -1;
  int requests_ = -1, answers_ = -1;
  std::string pending_;
};

// Answers one line in a child process of its own (isolation::per_case).
inline void answer_isolated(ojson& line, const std::map<std::string, op_handler>& ops, unsigned seconds) {
  case_worker(ops, seconds).answer(line);
}

// Parses one request line into `line`; returns why it is not a request, or
// "" when it is one. The limits are eval's (docs/eval-protocol.md 1.4): a
// line nested deeper than max_nesting would exhaust the stack of the JSON
// writer that echoes it back.
inline std::string unreadable_request(const std::string& text, ojson& line) {
  if (text.size() > limits::max_line_bytes)
    return "request line longer than " + std::to_string(limits::max_line_bytes) + " bytes" +
           limits::limit_note("max_line_bytes");
  if (limits::nesting_depth(text) > limits::max_nesting)
    return "JSON nested deeper than " + std::to_string(limits::max_nesting) + " levels";
  try {
    line = ojson::parse(text);
  } catch (const std::exception& e) {
    return std::string("not valid JSON: ") + e.what();
  }
  if (!line.is_object()) return std::string("a request must be a JSON object, got ") + line.type_name();
  return "";
}

// The fields of an answer line that only the adapter writes: a request that
// brings them has them dropped, so that a result, an allowance or an input
// change is always the engine's own.
inline void drop_answer_fields(ojson& line) {
  for (const char* field : {"result", "error", "allowances", "diagnostics"}) line.erase(field);
}

// Runs the adapter over `in` (standard input), writing the answer lines to
// `out`; returns the process exit status. `mode`: how an engine that aborts
// or hangs is kept from ending the adapter (isolation), with a wall-clock
// limit of `seconds_per_case` per case.
inline int run_adapter(const std::string& engine, const std::string& precision,
                       const std::map<std::string, op_handler>& ops, isolation mode, unsigned seconds_per_case = 5,
                       std::istream& in = std::cin, std::ostream& out = std::cout) {
  std::optional<case_worker> worker;
  if (mode == isolation::worker) worker.emplace(ops, seconds_per_case, out);
  std::string text;
  while (std::getline(in, text)) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    ojson line;
    if (const std::string problem = unreadable_request(text, line); !problem.empty()) {
      // As `rigidref eval` does: one answer line per request line, with id null.
      const ojson answer_line = {{"id", nullptr}, {"engine", engine}, {"precision", precision},
                                 {"error", {{"code", "parse_error"}, {"message", problem}}}};
      out << line_text(answer_line) << '\n';
      continue;
    }
    drop_answer_fields(line);
    line["engine"] = engine;
    line["precision"] = precision;
    switch (mode) {
      case isolation::none: answer(line, ops); break;
      case isolation::per_case: case_worker(ops, seconds_per_case, out).answer(line); break;
      case isolation::worker: worker->answer(line); break;
    }
    out << line_text(line) << '\n';
  }
  worker.reset();
  out.flush();
  return 0;
}

// The same, with `isolate` for isolation::per_case (true) or none (false).
inline int run_adapter(const std::string& engine, const std::string& precision,
                       const std::map<std::string, op_handler>& ops, bool isolate = false,
                       unsigned seconds_per_case = 5) {
  return run_adapter(engine, precision, ops, isolate ? isolation::per_case : isolation::none, seconds_per_case);
}

}  // namespace rigidref::protocol

#include "rigidref/detail/fp_end.hpp"
