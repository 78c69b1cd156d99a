int count_pairs(const std::vector<int>& xs, const std::vector<int>& ys) {
  int count = 0;
  for (int x : xs) {
    for (int y : ys) {
      if (x == y && x > 0) {
        count++;
      }
    }
  }
  return count;
}
