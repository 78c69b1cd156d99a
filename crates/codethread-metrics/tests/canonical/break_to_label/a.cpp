bool find(const std::vector<std::vector<int>>& grid, int target) {
  bool found = false;
  for (const auto& row : grid) {
    for (int cell : row) {
      if (cell == target) {
        found = true;
        goto out;
      }
    }
  }
out:
  return found;
}
