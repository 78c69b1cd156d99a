int check(bool a, bool b, bool c, bool d) {
  if (a && b && c || d) {
    return 1;
  }
  return 0;
}
