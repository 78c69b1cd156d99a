class A {
  int score(int[] xs) {
    int n = 0;
    for (int x : xs) {
      switch (x) {
        case 1:
          n += 1;
          break;
        case 2:
          n += 2;
          break;
        default:
          n += 0;
      }
    }
    return n;
  }
}
