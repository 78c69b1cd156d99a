int sum_odd(int n) {
  int total = 0;
  int i = 0;
  while (i < n) {
    i += 1;
    if (i % 2 == 0) {
      continue;
    }
    total += i;
  }
  return total;
}
