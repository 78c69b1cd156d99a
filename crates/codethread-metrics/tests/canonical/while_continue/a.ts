function sumOdd(n: number): number {
  let total = 0;
  let i = 0;
  while (i < n) {
    i += 1;
    if (i % 2 === 0) {
      continue;
    }
    total += i;
  }
  return total;
}
