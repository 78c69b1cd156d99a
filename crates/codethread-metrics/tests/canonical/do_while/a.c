int drain(struct queue *q) {
  int n = 0;
  do {
    n++;
  } while (pop(q) && n < 10);
  return n;
}
