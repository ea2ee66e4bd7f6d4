/* A jump table, floating point, calls and spills across a call. */
double scale(double x, int k);
double pick(int k, double x) {
  switch (k) {
  case 0: return x * 2.0;
  case 1: return x + 3.5;
  case 2: return x / 7.0;
  case 3: return -x;
  case 4: return x * x;
  case 5: return scale(x, k) + x;
  default: return 0.0;
  }
}
double chain(double a, double b, double c) {
  double s = scale(a, 1) * b;
  double t = scale(s, 2) + c;
  return s * t - scale(t, 3);
}
