// `rigidref check --merge FILES...`: the single run's summary from the
// records of its shards (check/summary.hpp). The shards' case records are
// merged by line number (each shard's are ascending) into one summary, as the
// single run adds them; nothing is printed before every shard is known to
// be complete and to have read the same stream.
#include "check/case_set.hpp"
#include "check/check.hpp"
#include "check/summary.hpp"
#include "shard/shard.hpp"

#include <iostream>
#include <memory>
#include <optional>
#include <set>

namespace rigidref::tools {

namespace {

using check::json;
using shard::merge_error;

struct input {
  std::unique_ptr<shard::record_reader> reader;
  shard::spec slice;
  json head;               // the next case record, or null once at the end record
  json end;                // the end record
  std::size_t cases = 0;   // case records read
  std::size_t last_line = 0;
};

void advance(input& in) {
  json r = in.reader->next();
  if (r.is_null())
    throw merge_error(in.reader->path() + ": no end record: shard " + in.slice.text() +
                      " did not finish (interrupted, or the file is truncated)");
  if (r["record"] == "end") {
    in.head = nullptr;
    in.end = r;
    if (!in.reader->next().is_null()) throw merge_error(in.reader->where() + ": a record after the end record");
    return;
  }
  if (r["record"] != "case") throw merge_error(in.reader->where() + ": unexpected " + r["record"].dump() + " record");
  const std::size_t line = r.value("line", std::size_t(0));
  if (line == 0 || !shard::owns_line(in.slice, line))
    throw merge_error(in.reader->where() + ": line " + std::to_string(line) + " is not shard " + in.slice.text() + "'s");
  if (line <= in.last_line)
    throw merge_error(in.reader->where() + ": line " + std::to_string(line) + " repeated or out of order");
  in.last_line = line;
  ++in.cases;
  in.head = std::move(r);
}

std::vector<input> open_shards(const std::vector<std::string>& files) {
  std::vector<input> inputs;
  for (const auto& path : files) {
    input in;
    in.reader = std::make_unique<shard::record_reader>(path);
    const json h = in.reader->next();
    if (h.is_null() || h["record"] != "header" || h.value("tool", "") != "rigidref check")
      throw merge_error(in.reader->where() + ": the first record must be the header of rigidref check --shard or "
                                             "--cases-out");
    if (h.value("format", 0) != check::record_format)
      throw merge_error(in.reader->where() + ": record format " + h["format"].dump() + ", this rigidref reads " +
                        std::to_string(check::record_format));
    in.slice.k = h.value("shard", std::size_t(0));
    in.slice.n = h.value("of", std::size_t(0));
    if (in.slice.k < 1 || in.slice.k > in.slice.n)
      throw merge_error(path + ": shard " + in.slice.text() + " is not K/N with 1 <= K <= N");
    inputs.push_back(std::move(in));
  }
  return shard::in_shard_order(std::move(inputs));
}

}  // namespace

int run_check_merge(const check_options& opts, std::ostream& out, std::ostream& err) {
  try {
    std::vector<input> shards = open_shards(opts.merge);
    check::summary sum;
    std::optional<check::case_set> cases;
    if (!opts.cases.empty()) {
      try {
        cases = check::case_set::load(opts.cases);
      } catch (const std::exception& e) {
        throw merge_error(e.what());
      }
    }
    std::set<std::string> seen;  // ids in line order, as the single run sees them
    try {
      for (auto& sh : shards) advance(sh);
      for (;;) {
        input* next = nullptr;
        for (auto& sh : shards)
          if (!sh.head.is_null() && (next == nullptr || sh.head["line"] < next->head["line"])) next = &sh;
        if (next == nullptr) break;
        try {
          check::case_outcome c = check::case_of(next->head);
          if (cases && !c.id.is_null() && cases->find(c.id) != nullptr) {
            // A shard sees only its own lines: a repeat across shards is found here.
            if (!seen.insert(c.id.dump()).second && c.failures != std::vector<std::string>{"repeated id"}) {
              c.v = check::verdict::fail;
              c.failures = {"repeated id"};
              c.fields.clear();
              c.error_eps = 0;
              c.worst_field.clear();
              c.detail = "id " + c.id.dump() + " was answered before";
            }
            cases->ids().answered.insert(c.id.dump());
          }
          sum.add(std::move(c));
        } catch (const std::exception& e) {
          throw merge_error(next->reader->where() + ": bad case record: " + e.what());
        }
        advance(*next);
      }
    } catch (const json::exception& e) {
      throw merge_error(std::string("bad record: ") + e.what());
    }
    // Every shard read the same stream to its end and wrote every case it judged.
    const input& first = shards.front();
    for (const auto& sh : shards) {
      if (sh.end.value("input", "") != first.end.value("input", "") || sh.end.value("lines", 0) != first.end.value("lines", 0))
        throw merge_error("shards of different inputs: " + sh.reader->path() + " read " + sh.end.value("lines", json()).dump() +
                          " lines (digest " + sh.end.value("input", "?") + "), " + first.reader->path() + " read " +
                          first.end.value("lines", json()).dump() + " (digest " + first.end.value("input", "?") + ")");
      if (sh.end.value("judged", std::size_t(0)) != sh.cases)
        throw merge_error(sh.reader->path() + ": the end record counts " + sh.end.value("judged", json()).dump() +
                          " judged cases, the file has " + std::to_string(sh.cases) + " case records");
    }
    return sum.print(first.end.value("lines", std::size_t(0)), opts.worst, out, cases ? &cases->ids() : nullptr,
                     opts.max_skipped) == 0
               ? 0
               : 1;
  } catch (const merge_error& e) {
    err << "rigidref check --merge: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace rigidref::tools
