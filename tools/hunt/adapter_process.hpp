// A running engine adapter for `rigidref hunt`: started once, kept running,
// one request line in, one answer line out (docs/adapters.md). An adapter
// that dies, closes its output or takes longer than the per-case timeout is
// killed and started again; that request is answered by nothing.
#pragma once

#include <optional>
#include <string>

#include <sys/types.h>

namespace rigidref::tools::hunt {

class adapter_process {
 public:
  // `command` runs under /bin/sh (so quoting works as in a shell);
  // `quiet_stderr` sends the adapter's standard error to /dev/null.
  adapter_process(std::string command, double timeout_seconds, bool quiet_stderr);
  ~adapter_process();
  adapter_process(const adapter_process&) = delete;
  adapter_process& operator=(const adapter_process&) = delete;

  // The adapter's answer line to `request` (one line, no newline), or
  // nullopt when it died or hung on it (it is then restarted for the next).
  std::optional<std::string> ask(const std::string& request);

  int restarts() const { return restarts_; }
  // The exit status of the last adapter process that ended (-1: none, or
  // killed by a signal); 127 or 126: /bin/sh could not run the command.
  int last_exit_status() const { return last_exit_; }

 private:
  void start();
  void stop();

  std::string command_;
  double timeout_;
  bool quiet_;
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;  // bytes read past the last answer line
  int restarts_ = 0;
  int last_exit_ = -1;
};

}  // namespace rigidref::tools::hunt
