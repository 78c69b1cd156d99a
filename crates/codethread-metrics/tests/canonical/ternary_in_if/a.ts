function pick(a: boolean, b: boolean): number {
  let x = 0;
  if (a) {
    x = b ? 1 : 2;
  }
  return x;
}
