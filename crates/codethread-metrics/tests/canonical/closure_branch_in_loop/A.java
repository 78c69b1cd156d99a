class A {
  void visit(List<List<Integer>> groups) {
    for (List<Integer> g : groups) {
      g.forEach(x -> {
        if (x > 0) {
          handle(x);
        }
      });
    }
  }
}
