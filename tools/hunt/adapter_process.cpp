#include "hunt/adapter_process.hpp"

#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rigidref::tools::hunt {

adapter_process::adapter_process(std::string command, double timeout_seconds, bool quiet_stderr)
    : command_(std::move(command)), timeout_(timeout_seconds), quiet_(quiet_stderr) {
  // A write to an adapter that has died must be an error, not the end of us.
  std::signal(SIGPIPE, SIG_IGN);
  start();
}

adapter_process::~adapter_process() { stop(); }

void adapter_process::start() {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("hunt: pipe failed: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("hunt: fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    if (quiet_) {
      const int null = open("/dev/null", O_WRONLY);
      if (null >= 0) dup2(null, STDERR_FILENO);
    }
    setpgid(0, 0);  // its own process group: a kill reaches the adapter's children too
    const std::string line = "exec " + command_;
    execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  pid_ = pid;
  to_child_ = in[1];
  from_child_ = out[0];
  buffer_.clear();
}

void adapter_process::stop() {
  if (pid_ <= 0) return;
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  to_child_ = from_child_ = -1;
  int status = 0;
  // An adapter that already ended keeps its exit status; else it is killed.
  if (waitpid(pid_, &status, WNOHANG) == 0) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
  }
  last_exit_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  pid_ = -1;
}

std::optional<std::string> adapter_process::ask(const std::string& request) {
  const auto restart = [this]() -> std::optional<std::string> {
    stop();
    ++restarts_;
    start();
    return std::nullopt;
  };
  if (pid_ <= 0) start();
  const std::string line = request + "\n";
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = write(to_child_, line.data() + written, line.size() - written);
    if (n <= 0) return restart();
    written += static_cast<std::size_t>(n);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_);
  for (;;) {
    const std::size_t end = buffer_.find('\n');
    if (end != std::string::npos) {
      std::string answer = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      if (!answer.empty() && answer.back() == '\r') answer.pop_back();
      return answer;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return restart();
    pollfd p{from_child_, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return restart();
    char chunk[65536];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n <= 0) return restart();  // the adapter closed its output or died
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace rigidref::tools::hunt
