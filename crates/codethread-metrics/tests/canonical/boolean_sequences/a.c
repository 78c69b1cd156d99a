int check(int a, int b, int c, int d) {
  if (a && b && c || d) {
    return 1;
  }
  return 0;
}
