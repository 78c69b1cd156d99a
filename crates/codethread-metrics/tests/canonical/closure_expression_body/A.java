class A {
  List<Integer> doubled(List<Integer> xs) {
    return xs.stream().map(x -> x * 2).collect(Collectors.toList());
  }
}
