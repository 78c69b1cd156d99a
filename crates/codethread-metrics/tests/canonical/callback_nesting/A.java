class A {
  int countTruthy(List<Boolean> xs) {
    int[] n = {0};
    xs.forEach(x -> {
      if (x) {
        n[0]++;
      }
    });
    return n[0];
  }
}
