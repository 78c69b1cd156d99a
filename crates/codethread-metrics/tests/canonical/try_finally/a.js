function closeAll(xs) {
  let n = 0;
  try {
    for (const x of xs) {
      x.close();
      n += 1;
    }
  } finally {
    log(n);
  }
  return n;
}
