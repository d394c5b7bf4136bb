// `rigidref eval`: the JSON Lines protocol of ../shared/eval-protocol.md.
#pragma once

#include <iosfwd>
#include <string>

namespace rigidref::tools {

// Answers every line of `in` on `out`, in order. Returns 0 (every line got
// an answer line, error answers included).
int run_eval(std::istream& in, std::ostream& out);

// The answer line (without newline) for one request line; `rigidref check`
// computes its reference answers through this, so they are eval's answers.
std::string answer_line(const std::string& line);

}  // namespace rigidref::tools
