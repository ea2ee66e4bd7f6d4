#include "engine/crash.h"

#include "engine/session_registry.h"
#include "lowertrace/session.h"
#include "util/fatal.h"
#include "util/log.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace lowertrace::crash {

namespace {

// The signals LLVM treats as "we have a bug" (its KillSigs).
constexpr int kFatal[] = {SIGILL, SIGTRAP, SIGABRT, SIGFPE,  SIGBUS,
                          SIGSEGV, SIGQUIT, SIGSYS, SIGXCPU, SIGXFSZ};

volatile sig_atomic_t g_signal = 0;  // the fatal signal, once seen
struct sigaction g_host[NSIG];       // what install() found in place
bool g_sniffing[NSIG];
std::atomic<bool> g_done{false};

struct Flushers {
  std::mutex mu;
  std::vector<std::pair<const void *, std::function<void(const std::string &)>>> list;
};
Flushers &flushers() {
  static Flushers *f = new Flushers;  // never destroyed: used until exit
  return *f;
}

bool is_default(const struct sigaction &sa) {
  return !(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL;
}

void resend(int sig, siginfo_t *info) {
  // To this thread, with the original siginfo, as LLVM's own handler does.
  if (::syscall(SYS_rt_tgsigqueueinfo, ::getpid(), ::syscall(SYS_gettid), sig, info) != 0)
    ::raise(sig);
}

// Runs first on a fatal signal; `sig` is blocked while it runs, so the
// re-sent signal is delivered right after it returns, at the crash point.
void sniff(int sig, siginfo_t *info, void *) {
  if (!g_signal) g_signal = sig;
  ::sigaction(sig, &g_host[sig], nullptr);
  if (is_default(g_host[sig])) on_fatal_signal();  // nobody else will
  resend(sig, info);
}

// While finishing after a crash: anything going wrong ends the process the
// way the crash would have.
void die_as_crashed(int) {
  int sig = g_signal ? static_cast<int>(g_signal) : SIGABRT;
  ::signal(sig, SIG_DFL);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &s, nullptr);
  ::raise(sig);
  ::_exit(128 + sig);
}

}  // namespace

std::string signal_name(int sig) {
  switch (sig) {
  case SIGILL: return "SIGILL";
  case SIGTRAP: return "SIGTRAP";
  case SIGABRT: return "SIGABRT";
  case SIGFPE: return "SIGFPE";
  case SIGBUS: return "SIGBUS";
  case SIGSEGV: return "SIGSEGV";
  case SIGQUIT: return "SIGQUIT";
  case SIGSYS: return "SIGSYS";
  case SIGXCPU: return "SIGXCPU";
  case SIGXFSZ: return "SIGXFSZ";
  default: return "signal " + std::to_string(sig);
  }
}

void add_flusher(const void *key, std::function<void(const std::string &)> flush) {
  Flushers &f = flushers();
  std::lock_guard<std::mutex> lock(f.mu);
  f.list.emplace_back(key, std::move(flush));
}

void remove_flusher(const void *key) {
  Flushers &f = flushers();
  std::lock_guard<std::mutex> lock(f.mu);
  for (auto it = f.list.begin(); it != f.list.end(); ++it)
    if (it->first == key) {
      f.list.erase(it);
      return;
    }
}

void install() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kFatal) {
      struct sigaction cur;
      if (::sigaction(sig, nullptr, &cur) != 0) continue;
      if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_IGN) continue;
      g_host[sig] = cur;
      struct sigaction sa;
      std::memset(&sa, 0, sizeof sa);
      sa.sa_sigaction = sniff;
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&sa.sa_mask);
      if (::sigaction(sig, &sa, nullptr) == 0) g_sniffing[sig] = true;
    }
  });
}

void on_fatal_signal() {
  if (g_done.exchange(true)) return;
  util::enter_fatal_signal();
  int sig = g_signal;
  std::string what = "crashed: " + (sig ? signal_name(sig) : std::string("fatal signal"));

  struct sigaction guard, saved[NSIG], saved_alarm;
  std::memset(&guard, 0, sizeof guard);
  guard.sa_handler = die_as_crashed;
  guard.sa_flags = SA_ONSTACK | SA_NODEFER;
  sigemptyset(&guard.sa_mask);
  for (int s : kFatal) ::sigaction(s, &guard, &saved[s]);
  ::sigaction(SIGALRM, &guard, &saved_alarm);
  unsigned prev_alarm = ::alarm(60);  // finishing normally takes far less

  {
    Flushers &f = flushers();
    std::unique_lock<std::mutex> lock(f.mu, std::try_to_lock);
    if (lock.owns_lock())
      for (auto &[key, flush] : f.list) flush(what);
  }
  std::vector<Session *> live;
  if (registry::snapshot(live, 2000)) {
    for (Session *s : live)
      if (!s->finish_after_crash(what))
        util::warn("the compiler " + what + "; this run's trace could not be finished");
  }

  ::alarm(prev_alarm);
  ::sigaction(SIGALRM, &saved_alarm, nullptr);
  for (int s : kFatal) ::sigaction(s, &saved[s], nullptr);
}

}  // namespace lowertrace::crash
