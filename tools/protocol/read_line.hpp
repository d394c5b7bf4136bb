// Reading one line of a JSON Lines stream with bounded memory, for eval and
// check (docs/eval-protocol.md 1.4, max_line_bytes).
#pragma once

#include <istream>
#include <iterator>
#include <string>

namespace rigidref::tools {

// std::getline that keeps at most `keep` bytes of the line (the rest is read
// and dropped): an over-long line costs no more memory than the limit.
inline bool read_line(std::istream& in, std::string& line, std::size_t keep) {
  line.clear();
  std::istreambuf_iterator<char> it(in), end;
  if (it == end) {
    in.setstate(std::ios::eofbit);
    return false;
  }
  for (; it != end; ++it) {
    const char c = *it;
    if (c == '\n') {
      ++it;
      return true;
    }
    if (line.size() < keep) line += c;
  }
  in.setstate(std::ios::eofbit);
  return true;
}

}  // namespace rigidref::tools
