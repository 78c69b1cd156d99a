function check(a: boolean, b: boolean, c: boolean, d: boolean): number {
  if (a && b && c || d) {
    return 1;
  }
  return 0;
}
