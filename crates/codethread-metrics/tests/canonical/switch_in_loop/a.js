function score(xs) {
  let n = 0;
  for (const x of xs) {
    switch (x) {
      case 1:
        n += 1;
        break;
      case 2:
        n += 2;
        break;
      default:
        n += 0;
    }
  }
  return n;
}
