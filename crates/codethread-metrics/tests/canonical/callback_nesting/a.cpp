int count_truthy(const std::vector<bool>& xs) {
  int n = 0;
  std::for_each(xs.begin(), xs.end(), [&](bool x) {
    if (x) {
      n++;
    }
  });
  return n;
}
