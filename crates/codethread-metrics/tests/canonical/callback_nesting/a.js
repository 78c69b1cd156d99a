function countTruthy(xs) {
  let n = 0;
  xs.forEach((x) => {
    if (x) {
      n++;
    }
  });
  return n;
}
