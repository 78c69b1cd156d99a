def check(a, b, c, d)
  if a && b && c || d
    return 1
  end
  return 0
end
