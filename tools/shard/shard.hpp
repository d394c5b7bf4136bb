// Shards of `rigidref campaign` and `rigidref check` (docs/scale-out.md):
// "--shard K/N" names slice K of N (K in 1..N), run by an external scheduler
// (GNU parallel, a Slurm job array); each shard writes JSON Lines records and
// `--merge FILES...` rebuilds the single run's summary from them.
//   - campaign: the pair count of each type is known in advance, so shard K
//     takes the contiguous block [floor((K-1) T / N), floor(K T / N)) of the
//     T pairs of each type: counts differ by at most one, and because the
//     kinds go round-robin inside a block each shard gets the same kind mix
//     (i mod N would give a shard a single kind whenever N is a multiple of
//     the kind count);
//   - check: an answer stream's length is not known until its end, so shard
//     K judges the lines whose 1-based number L has (L - 1) mod N == K - 1;
//     every shard reads the whole stream (reading is cheap, judging is not)
//     and keeps the global line numbers.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>
#include <string_view>

namespace rigidref::tools::shard {

struct spec {
  std::size_t k = 1, n = 1;  // slice k of n, 1 <= k <= n
  bool sliced() const { return n > 1; }
  std::string text() const { return std::to_string(k) + "/" + std::to_string(n); }
};

// "K/N" with 1 <= K <= N; throws std::invalid_argument naming what is wrong.
inline spec parse(std::string_view s) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument("--shard \"" + std::string(s) + "\": " + why);
  };
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos) throw bad("expected K/N, e.g. 2/4");
  const auto number = [&](std::string_view digits, const char* what) {
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos)
      throw bad(std::string(what) + " must be a positive integer (K/N, e.g. 2/4)");
    return static_cast<std::size_t>(std::stoul(std::string(digits)));
  };
  spec out;
  out.k = number(s.substr(0, slash), "K");
  out.n = number(s.substr(slash + 1), "N");
  if (out.n == 0) throw bad("N must be at least 1");
  if (out.k == 0 || out.k > out.n) throw bad("K must be in 1.." + std::to_string(out.n));
  return out;
}

// The campaign's block of `total` items: [begin, end); (K-1) T in 128 bits.
__extension__ typedef unsigned __int128 u128;  // GCC, Clang
inline std::size_t block_begin(const spec& s, std::size_t total) {
  return static_cast<std::size_t>((static_cast<u128>(s.k - 1) * total) / s.n);
}
inline std::size_t block_end(const spec& s, std::size_t total) {
  return static_cast<std::size_t>((static_cast<u128>(s.k) * total) / s.n);
}

// check: does shard s judge line `line` (1-based)?
inline bool owns_line(const spec& s, std::size_t line) { return (line - 1) % s.n == s.k - 1; }

// FNV-1a, 64 bits, over every line and its end: shards of check compare it
// to refuse merging shards that read different inputs (not a security hash).
class digest {
 public:
  void add_line(std::string_view line) {
    for (const char c : line) mix(static_cast<unsigned char>(c));
    mix('\n');
  }
  std::string hex() const {
    static const char* digits = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 0; i < 16; ++i) out[static_cast<std::size_t>(15 - i)] = digits[(h_ >> (4 * i)) & 0xf];
    return out;
  }

 private:
  void mix(unsigned char c) {
    h_ ^= c;
    h_ *= 0x100000001b3ULL;
  }
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

// A merge input error: the message names the file (and line).
struct merge_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One shard file read line by line as JSON records.
class record_reader {
 public:
  explicit record_reader(std::string path) : path_(std::move(path)), in_(path_) {
    if (!in_) throw merge_error(path_ + ": cannot open");
  }
  const std::string& path() const { return path_; }
  std::size_t line() const { return line_; }
  // The next record, or a null json at the end of the file.
  nlohmann::json next() {
    std::string text;
    while (std::getline(in_, text)) {
      ++line_;
      if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
      nlohmann::json r = nlohmann::json::parse(text, nullptr, false);
      if (r.is_discarded() || !r.is_object() || !r.contains("record") || !r["record"].is_string())
        throw merge_error(where() + ": not a shard record (a JSON object with a \"record\" field)");
      return r;
    }
    return nullptr;
  }
  std::string where() const { return path_ + ":" + std::to_string(line_); }

 private:
  std::string path_;
  std::ifstream in_;
  std::size_t line_ = 0;
};

// The stream shard records go to: `path` ("-": `out`), else `out` when
// sharding, else none (nullptr). Opens `file` for a path; throws
// std::runtime_error when it cannot.
inline std::ostream* records_stream(const std::string& path, bool sharding, std::ostream& out, std::ofstream& file) {
  const std::string where = !path.empty() ? path : (sharding ? "-" : "");
  if (where == "-") return &out;
  if (where.empty()) return nullptr;
  file.open(where);
  if (!file) throw std::runtime_error("cannot write " + where);
  return &file;
}

// A CLI11 check for --shard: "" when `s` is K/N, else why not.
inline std::string validate(const std::string& s) {
  try {
    parse(s);
    return std::string();
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
}

// The inputs of a merge in shard order 1..N. Each Input has a `slice` and a
// `reader` (a record_reader). Refuses shards cut into different N, a shard
// given twice and a missing shard.
template <class Input>
std::vector<Input> in_shard_order(std::vector<Input> inputs) {
  for (const Input& in : inputs)
    if (in.slice.n != inputs.front().slice.n)
      throw merge_error("shards of different cuts: " + in.reader->path() + " is shard " + in.slice.text() + ", " +
                        inputs.front().reader->path() + " is shard " + inputs.front().slice.text());
  const std::size_t n = inputs.front().slice.n;
  std::vector<Input> by_k(n);
  for (auto& in : inputs) {
    Input& slot = by_k[in.slice.k - 1];
    if (slot.reader)
      throw merge_error("shard " + in.slice.text() + " given twice: " + slot.reader->path() + " and " + in.reader->path());
    slot = std::move(in);
  }
  std::string missing;
  for (std::size_t k = 1; k <= n; ++k)
    if (!by_k[k - 1].reader) missing += (missing.empty() ? "" : ", ") + std::to_string(k) + "/" + std::to_string(n);
  if (!missing.empty()) throw merge_error("shard " + missing + " missing: every shard 1.." + std::to_string(n) + " is needed");
  return by_k;
}

}  // namespace rigidref::tools::shard
