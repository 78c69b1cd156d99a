class A {
  int check(boolean a, boolean b, boolean c, boolean d) {
    if (a && b && c || d) {
      return 1;
    }
    return 0;
  }
}
