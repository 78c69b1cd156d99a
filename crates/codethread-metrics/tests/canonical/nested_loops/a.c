int count_pairs(const int *xs, int nx, const int *ys, int ny) {
  int count = 0;
  for (int i = 0; i < nx; i++) {
    for (int j = 0; j < ny; j++) {
      if (xs[i] == ys[j] && xs[i] > 0) {
        count++;
      }
    }
  }
  return count;
}
