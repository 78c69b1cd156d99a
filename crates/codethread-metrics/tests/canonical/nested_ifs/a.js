function pick(a, b) {
  if (a) {
    if (b) {
      return 1;
    } else {
      return 2;
    }
  }
  return 3;
}
