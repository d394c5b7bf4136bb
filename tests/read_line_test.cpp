// read_line (tools/protocol/read_line.hpp), the line reader of eval and
// check, against the lines of its input split at '\n' and cut to `keep`
// bytes: every line, in order, then false with eofbit set. Inputs cross the
// reader's 512-byte chunks and a stream buffer that hands out 7 bytes at a
// time; an empty stream, empty lines, CR before LF and a last line without
// '\n' included.
#include "protocol/read_line.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace read_line_test {

namespace {

// What read_line must return, line by line: `text` split at '\n' (a final
// '\n' ends the last line and starts none), each line cut to `keep` bytes.
std::vector<std::string> expected_lines(const std::string& text, std::size_t keep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::size_t stop = end == std::string::npos ? text.size() : end;
    out.push_back(text.substr(start, std::min(stop - start, keep)));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

// A stream buffer that hands out at most 7 bytes per refill, so that reads
// cross its buffer's ends as a file's or a pipe's do.
class trickle : public std::streambuf {
 public:
  explicit trickle(std::string text) : text_(std::move(text)) {}

 protected:
  int_type underflow() override {
    if (at_ >= text_.size()) return traits_type::eof();
    const std::size_t n = std::min<std::size_t>(7, text_.size() - at_);
    char* p = text_.data() + at_;
    setg(p, p, p + n);
    at_ += n;
    return traits_type::to_int_type(*p);
  }

 private:
  std::string text_;
  std::size_t at_ = 0;
};

std::vector<std::string> read_all(std::istream& in, std::size_t keep) {
  std::vector<std::string> out;
  std::string line;
  while (rigidref::tools::read_line(in, line, keep)) out.push_back(line);
  CHECK(in.eof());
  return out;
}

void check_text(const std::string& text, std::size_t keep) {
  INFO("text of " << text.size() << " bytes, keep " << keep);
  const std::vector<std::string> want = expected_lines(text, keep);
  std::istringstream whole(text);
  CHECK(read_all(whole, keep) == want);
  trickle buffer(text);
  std::istream trickled(&buffer);
  CHECK(read_all(trickled, keep) == want);
}

}  // namespace

TEST_CASE("read_line: the lines, cut to keep bytes, across chunk and buffer ends", "[eval][read_line]") {
  const std::vector<std::size_t> keeps = {0, 1, 7, 511, 512, 513, 1000, 1u << 20};
  const std::vector<std::string> fixed = {"", "\n", "\n\n", "a", "a\n", "a\nb", "a\n\nb\n", "{\"id\":1}\r\n{\"id\":2}\r\n"};
  for (const std::string& text : fixed)
    for (const std::size_t keep : keeps) check_text(text, keep);
  for (const std::size_t length : {511u, 512u, 513u, 1023u, 1024u, 1025u, 5000u})
    for (const std::size_t keep : keeps) {
      const std::string line(length, 'x');
      check_text(line, keep);
      check_text(line + "\n", keep);
      check_text(line + "\n" + line + "\ny", keep);
    }
  std::mt19937_64 g(20261128);
  for (int i = 0; i < 200; ++i) {
    std::string text;
    const int lines = std::uniform_int_distribution<int>(0, 6)(g);
    for (int k = 0; k < lines; ++k) {
      text += std::string(std::uniform_int_distribution<std::size_t>(0, 1300)(g), static_cast<char>('a' + k));
      if (k + 1 < lines || std::uniform_int_distribution<int>(0, 1)(g) == 0) text += '\n';
    }
    check_text(text, keeps[std::uniform_int_distribution<std::size_t>(0, keeps.size() - 1)(g)]);
  }
}

}  // namespace read_line_test
