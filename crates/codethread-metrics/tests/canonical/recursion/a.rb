def fact(n)
  if n <= 1
    return 1
  end
  return n * fact(n - 1)
end
