/* Loops (loop-simplify and LSR run on them), an inlined helper, an optnone
   function (skipped machine passes, instruction selection at O0) and an
   empty loop. */
static long square_plus(long v) { return v * v + 3; }
long accumulate(const long *vals, int count) {
  long sum = 0;
  for (int k = 0; k < count; ++k) sum += square_plus(vals[k]) >> 1;
  return sum;
}
__attribute__((optnone, noinline)) long kept_slow(long v) { return v * 9 - 4; }
void spin(int rounds) { for (int k = 0; k < rounds; ++k) { } }
