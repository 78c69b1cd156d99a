function pick(a: boolean, b: boolean): number {
  if (a) {
    if (b) {
      return 1;
    } else {
      return 2;
    }
  }
  return 3;
}
