class A {
  int pick(boolean a, boolean b) {
    if (a) {
      if (b) {
        return 1;
      } else {
        return 2;
      }
    }
    return 3;
  }
}
