function countPairs(xs: number[], ys: number[]): number {
  let count = 0;
  for (const x of xs) {
    for (const y of ys) {
      if (x === y && x > 0) {
        count++;
      }
    }
  }
  return count;
}
