function pick(a, b) {
  let x = 0;
  if (a) {
    x = b ? 1 : 2;
  }
  return x;
}
