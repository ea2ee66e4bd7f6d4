#include "engine/session_registry.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <utility>

namespace lowertrace::registry {

namespace {
struct Registry {
  std::mutex mu;
  std::vector<std::pair<std::thread::id, Session *>> live;  // creation order
};
// Never destroyed: a session owned by a static (the LLVM plugin's) may end
// after this file's statics would have been.
Registry &reg() {
  static Registry *r = new Registry;
  return *r;
}
}  // namespace

void add(Session *s) {
  Registry &r = reg();
  std::lock_guard<std::mutex> lock(r.mu);
  r.live.emplace_back(std::this_thread::get_id(), s);
}

void remove(Session *s) {
  Registry &r = reg();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = std::find_if(r.live.begin(), r.live.end(), [&](const auto &e) { return e.second == s; });
  if (it != r.live.end()) r.live.erase(it);
}

Session *current() {
  Registry &r = reg();
  std::lock_guard<std::mutex> lock(r.mu);
  auto me = std::this_thread::get_id();
  for (auto it = r.live.rbegin(); it != r.live.rend(); ++it)
    if (it->first == me) return it->second;
  return nullptr;
}

bool snapshot(std::vector<Session *> &out, int wait_ms) {
  Registry &r = reg();
  std::unique_lock<std::mutex> lock(r.mu, std::defer_lock);
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  while (!lock.try_lock()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  out.clear();
  for (auto it = r.live.rbegin(); it != r.live.rend(); ++it) out.push_back(it->second);
  return true;
}

}  // namespace lowertrace::registry
