def clamp(x, lo, hi):
    """Clamp x to [lo, hi] (a docstring is not a logical line)."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
