function doubled(xs: number[]): number[] {
  return xs.map((x: number) => x * 2);
}
