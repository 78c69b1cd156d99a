class A {
  int inc(int x) {
    return x + 1;
  }
}
