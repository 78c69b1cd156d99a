class A {
  int pick(boolean a, boolean b) {
    int x = 0;
    if (a) {
      x = b ? 1 : 2;
    }
    return x;
  }
}
