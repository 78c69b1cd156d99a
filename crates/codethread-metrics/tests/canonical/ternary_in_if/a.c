int pick(int a, int b) {
  int x = 0;
  if (a) {
    x = b ? 1 : 2;
  }
  return x;
}
