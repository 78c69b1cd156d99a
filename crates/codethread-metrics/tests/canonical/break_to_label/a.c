int find(int grid[4][4], int target) {
  int found = 0;
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++) {
      if (grid[i][j] == target) {
        found = 1;
        goto out;
      }
    }
  }
out:
  return found;
}
