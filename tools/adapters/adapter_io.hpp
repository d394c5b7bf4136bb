// The shared loop of the engine adapters: read eval request lines, let the
// engine answer the ops it has, write answer lines for `rigidref check`
// (README.md, "Checking an engine"). An answer line is the request with the
// inputs as the engine really used them (rounded to its precision), plus
// "engine", "precision", optional "allowances" and "result" or "error".
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

namespace rigidref::adapters {

using ojson = nlohmann::ordered_json;

// The engine does not take this case (too many vertices, not convex, ...):
// answered as error "unsupported" and counted as skipped, not failed.
struct unsupported_case : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One op of an engine: reads the request, may rewrite its inputs to what
// the engine used, fills "result" (and "allowances" if any).
using op_handler = std::function<void(ojson& line)>;

inline double number(const ojson& v, const char* what) {
  if (!v.is_number()) throw std::invalid_argument(std::string(what) + ": expected a number");
  return v.get<double>();
}

struct point {
  double x, y;
};

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

// Rounds each coordinate to float (what a float engine sees) and returns them
// as doubles, exactly.
inline std::vector<point> to_float_grid(std::vector<point> v) {
  for (point& p : v) p = {static_cast<double>(static_cast<float>(p.x)), static_cast<double>(static_cast<float>(p.y))};
  return v;
}

inline ojson vec_json(double x, double y) { return ojson::array({x, y}); }

// Answers one line in place (result or error).
inline void answer(ojson& line, const std::map<std::string, op_handler>& ops) {
  const std::string op = line.value("op", "");
  const auto it = ops.find(op);
  try {
    if (it == ops.end()) throw unsupported_case("this adapter does not run op \"" + op + "\"");
    it->second(line);
  } catch (const unsupported_case& e) {
    line.erase("result");
    line["error"] = {{"code", "unsupported"}, {"message", e.what()}};
  } catch (const std::exception& e) {
    line.erase("result");
    line["error"] = {{"code", "invalid_input"}, {"message", e.what()}};
  }
}

// Answers one line in a child process, so an engine that aborts (a failed
// assertion) or loops costs that case only: it is answered with error code
// "crashed" (killed by a signal, or no answer within `seconds`).
inline void answer_isolated(ojson& line, const std::map<std::string, op_handler>& ops, unsigned seconds) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::cout.flush();
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    close(fds[0]);
    alarm(seconds);  // SIGALRM ends a query that hangs
    answer(line, ops);
    const std::string text = line.dump();
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) _exit(3);
      done += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    line = ojson::parse(text);
  } else {
    line.erase("result");
    const std::string how = !WIFSIGNALED(status)          ? "exit status " + std::to_string(WEXITSTATUS(status))
                            : WTERMSIG(status) == SIGALRM ? "no answer within " + std::to_string(seconds) + " s"
                                                          : "signal " + std::to_string(WTERMSIG(status));
    line["error"] = {{"code", "crashed"}, {"message", "the engine aborted on this case (" + how + ")"}};
  }
}

// Runs the adapter over standard input; returns the process exit status.
// `isolate`: answer each case in its own process (for engines that abort
// or hang), with a wall-clock limit per case.
inline int run_adapter(const std::string& engine, const std::string& precision,
                       const std::map<std::string, op_handler>& ops, bool isolate = false,
                       unsigned seconds_per_case = 5) {
  std::string text;
  while (std::getline(std::cin, text)) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    ojson line;
    try {
      line = ojson::parse(text);
    } catch (const std::exception& e) {
      std::cerr << engine << " adapter: skipping a line that is not JSON: " << e.what() << "\n";
      continue;
    }
    line["engine"] = engine;
    line["precision"] = precision;
    if (isolate) answer_isolated(line, ops, seconds_per_case);
    else answer(line, ops);
    std::cout << line.dump() << '\n';
  }
  return 0;
}

}  // namespace rigidref::adapters
