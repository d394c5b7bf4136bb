// The input of a subcommand that reads a JSON Lines stream (eval, check): a
// file named on the command line, or standard input when the name is empty
// or "-". A file that cannot be read is a usage error (exit status 2) with a
// message naming it, e.g. for `rigidref check ANSWERS`:
//   try {
//     input_file input(opts.answers);
//     return judge(input.stream(), ...);
//   } catch (const input_error& e) {
//     err << "rigidref check: " << e.what() << "\n";
//     return 2;
//   }
#pragma once

#include "rigidref/error_text.hpp"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace rigidref::tools {

struct input_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class input_file {
 public:
  // Opens `path` for reading; throws input_error when it cannot.
  explicit input_file(const std::string& path) : standard_input_(path.empty() || path == "-") {
    if (standard_input_) return;
    const std::string name = quoted_excerpt(path, 200);
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw input_error("cannot read " + name + ": it is a directory");
    errno = 0;
    file_.open(path, std::ios::binary);
    if (!file_) {
      const int error = errno;
      throw input_error("cannot read " + name + ": " +
                        (error != 0 ? std::generic_category().message(error) : std::string("cannot open it")));
    }
  }

  std::istream& stream() { return standard_input_ ? std::cin : file_; }

 private:
  bool standard_input_;
  std::ifstream file_;
};

}  // namespace rigidref::tools
