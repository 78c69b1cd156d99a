std::string load(const std::string& p, bool retry) {
  try {
    return read(p);
  } catch (const io_error& e) {
    if (retry) {
      return read(p);
    }
    return "";
  } catch (const value_error& e) {
    return "";
  }
}
