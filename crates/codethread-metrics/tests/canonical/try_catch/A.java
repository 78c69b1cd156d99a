class A {
  String load(String p, boolean retry) {
    try {
      return read(p);
    } catch (IOException e) {
      if (retry) {
        return read(p);
      }
      return null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
