class A {
  boolean find(int[][] grid, int target) {
    boolean found = false;
    outer:
    for (int[] row : grid) {
      for (int cell : row) {
        if (cell == target) {
          found = true;
          break outer;
        }
      }
    }
    return found;
  }
}
