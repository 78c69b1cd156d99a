function drain(q) {
  let n = 0;
  do {
    n++;
  } while (q.pop() && n < 10);
  return n;
}
