std::vector<int> doubled(const std::vector<int>& xs) {
  return map_ints(xs, [](int x) { return x * 2; });
}
