function drain(q: Queue): number {
  let n = 0;
  do {
    n++;
  } while (q.pop() && n < 10);
  return n;
}
