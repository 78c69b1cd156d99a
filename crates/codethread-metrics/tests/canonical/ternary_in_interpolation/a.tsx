function label(n: number, unit: string): string {
  let text = "";
  if (n > 0) {
    text = `${n} ${unit}${n != 1 ? 's' : ''}`;
  }
  return text;
}
