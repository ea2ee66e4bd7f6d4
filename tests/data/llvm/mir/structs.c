/* Stack objects, a struct copy, a varargs-free recursion and a small global. */
struct pt { int x, y, z; long w; };
static struct pt origin = {1, 2, 3, 4};
long walk(struct pt *ps, int n) {
  struct pt local[4];
  for (int i = 0; i < 4; ++i) local[i] = i < n ? ps[i] : origin;
  long s = 0;
  for (int i = 0; i < 4; ++i) s += local[i].x * local[i].w + local[i].y - local[i].z;
  return s;
}
unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
