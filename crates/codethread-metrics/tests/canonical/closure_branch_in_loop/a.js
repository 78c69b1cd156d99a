function visit(groups) {
  for (const g of groups) {
    g.forEach((x) => {
      if (x > 0) {
        handle(x);
      }
    });
  }
}
