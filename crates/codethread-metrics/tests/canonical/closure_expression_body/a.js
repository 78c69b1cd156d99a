function doubled(xs) {
  return xs.map((x) => x * 2);
}
