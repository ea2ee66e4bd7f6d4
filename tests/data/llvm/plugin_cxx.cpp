// C++ for it.llvm_plugin_trace: templates, virtual calls, exceptions, lambdas
// and type-punned storage (TBAA), without system headers so that it stays small.
struct Base {
  virtual ~Base() {}
  virtual long get(int i) const = 0;
};
template <class T> struct Box final : Base {
  T v[4];
  explicit Box(T x) { for (int i = 0; i < 4; ++i) v[i] = x + i; }
  long get(int i) const override {
    if (i < 0 || i >= 4) throw i;
    return static_cast<long>(v[i]);
  }
};
template <class F> long fold(const Base &b, F f) {
  long acc = 0;
  for (int i = 0; i < 5; ++i) {
    try {
      acc = f(acc, b.get(i));
    } catch (int bad) {
      acc -= bad;
    }
  }
  return acc;
}
struct Either {
  int tag;
  union { long l; double d; } u;
};
static double weigh(const Either &e) { return e.tag ? e.u.d * 2 : static_cast<double>(e.u.l); }
long run(int n) {
  Box<int> a(n);
  Box<double> b(n * 0.5);
  Either es[3] = {{0, {.l = n}}, {1, {.d = 1.5}}, {0, {.l = 7}}};
  double w = 0;
  for (const Either &e : es) w += weigh(e);
  long scale = n;
  return fold(a, [](long x, long y) { return x + y; }) +
         fold(b, [scale](long x, long y) { return x * scale - y; }) + static_cast<long>(w);
}
