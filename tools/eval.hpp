// `rigidref eval`: the JSON Lines protocol of ../shared/eval-protocol.md.
#pragma once

#include <iosfwd>

namespace rigidref::tools {

// Answers every line of `in` on `out`, in order. Returns 0 (every line got
// an answer line, error answers included).
int run_eval(std::istream& in, std::ostream& out);

}  // namespace rigidref::tools
