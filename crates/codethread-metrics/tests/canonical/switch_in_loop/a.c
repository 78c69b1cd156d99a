int score(const int *xs, int len) {
  int n = 0;
  for (int i = 0; i < len; i++) {
    switch (xs[i]) {
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
