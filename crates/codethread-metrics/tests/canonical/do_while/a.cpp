int drain(Queue& q) {
  int n = 0;
  do {
    n++;
  } while (q.pop() && n < 10);
  return n;
}
