#include "util/no_xfsz.h"

#include <cerrno>
#include <ctime>
#include <pthread.h>

namespace lowertrace::util {

NoXfsz::NoXfsz() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGXFSZ);
  if (pthread_sigmask(SIG_BLOCK, &s, &old_) == 0) blocked_ = !sigismember(&old_, SIGXFSZ);
}

NoXfsz::~NoXfsz() {
  if (!blocked_) return;  // blocked by the host already: its business
  if (hit_) {
    // Standard signals do not queue: one pending SIGXFSZ however many writes failed.
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGXFSZ);
    struct timespec zero{0, 0};
    int saved = errno;
    while (sigtimedwait(&s, nullptr, &zero) < 0 && errno == EINTR) {}
    errno = saved;
  }
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

}  // namespace lowertrace::util
