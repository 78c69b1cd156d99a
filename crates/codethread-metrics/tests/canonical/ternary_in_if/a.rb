def pick(a, b)
  x = 0
  if a
    x = b ? 1 : 2
  end
  return x
end
