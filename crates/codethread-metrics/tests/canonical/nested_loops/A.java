class A {
  int countPairs(int[] xs, int[] ys) {
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
}
