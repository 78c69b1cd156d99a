class A {
  int closeAll(List<Closer> xs) {
    int n = 0;
    try {
      for (Closer x : xs) {
        x.close();
        n += 1;
      }
    } finally {
      log(n);
    }
    return n;
  }
}
