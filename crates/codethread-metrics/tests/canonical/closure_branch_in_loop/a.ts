function visit(groups: number[][]): void {
  for (const g of groups) {
    g.forEach((x: number) => {
      if (x > 0) {
        handle(x);
      }
    });
  }
}
