function label(n, unit) {
  let text = "";
  if (n > 0) {
    text = `${n} ${unit}${n != 1 ? 's' : ''}`;
  }
  return text;
}
