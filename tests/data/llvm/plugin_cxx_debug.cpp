// Debug info through clang -O2 (tests/integration/llvm_plugin_trace.sh): the
// inliner empties dead linkonce callees while it runs on their callers' SCC,
// and full unrolling drops stores that carry !DIAssignID. A function print's
// metadata numbers depend on every other function's nodes: both renumber.
#include <stdexcept>
#include <variant>

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
struct Square : Shape {
  double s;
  explicit Square(double v) : s(v) {}
  double area() const override { return s * s; }
};

template <typename T> static T clampv(T v, T lo, T hi) { return v < lo ? lo : v > hi ? hi : v; }

using Val = std::variant<long, double, const char *>;

double weight(const Val &v) {
  return std::visit([](const auto &x) -> double {
    if constexpr (std::is_same_v<std::decay_t<decltype(x)>, const char *>) return double(x[0]);
    else return double(x);
  }, v);
}

int fill(int *out) {
  int acc[4];
  for (int i = 0; i < 4; ++i) acc[i] = clampv(i * 7, 1, 20);
  int s = 0;
  for (int i = 0; i < 4; ++i) { out[i] = acc[i]; s += acc[i]; }
  return s;
}

double run(int n) {
  Val vs[3] = {Val(1L), Val(2.5), Val("abc")};
  double t = 0;
  for (int i = 0; i < n; ++i) t += weight(vs[i % 3]);
  Square sq(t);
  if (n < 0) throw std::runtime_error("negative");
  int buf[4];
  return sq.area() + fill(buf) + buf[2];
}
