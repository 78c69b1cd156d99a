void visit(std::vector<std::vector<int>>& groups) {
  for (auto& g : groups) {
    std::for_each(g.begin(), g.end(), [](int x) {
      if (x > 0) {
        handle(x);
      }
    });
  }
}
