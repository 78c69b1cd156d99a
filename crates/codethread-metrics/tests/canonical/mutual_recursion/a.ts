function is_even(n: number): boolean {
  if (n === 0) {
    return true;
  }
  return is_odd(n - 1);
}

function is_odd(n: number): boolean {
  if (n === 0) {
    return false;
  }
  return is_even(n - 1);
}
