def clamp(x, lo, hi)
  if x < lo
    return lo
  end
  if x > hi
    return hi
  end
  return x
end
