// Reading one line of a JSON Lines stream with bounded memory, for eval and
// check (docs/eval-protocol.md 1.4, max_line_bytes).
#pragma once

#include <algorithm>
#include <istream>
#include <streambuf>
#include <string>

namespace rigidref::tools {

// std::getline that keeps at most `keep` bytes of the line (the rest is read
// and dropped): an over-long line costs no more memory than the limit. Read
// from the stream buffer a character at a time and kept a chunk at a time
// (appending each character was 2-3 % of check).
inline bool read_line(std::istream& in, std::string& line, std::size_t keep) {
  using traits = std::char_traits<char>;
  line.clear();
  std::streambuf* const buffer = in.rdbuf();
  if (buffer == nullptr || traits::eq_int_type(buffer->sgetc(), traits::eof())) {
    in.setstate(std::ios::eofbit);
    return false;
  }
  char chunk[512];
  std::size_t held = 0;
  const auto keep_chunk = [&] {
    if (line.size() < keep) line.append(chunk, std::min(held, keep - line.size()));
    held = 0;
  };
  for (;;) {
    const traits::int_type c = buffer->sbumpc();
    if (traits::eq_int_type(c, traits::eof())) {
      keep_chunk();
      in.setstate(std::ios::eofbit);
      return true;
    }
    if (traits::to_char_type(c) == '\n') {
      keep_chunk();
      return true;
    }
    chunk[held++] = traits::to_char_type(c);
    if (held == sizeof chunk) keep_chunk();
  }
}

}  // namespace rigidref::tools
