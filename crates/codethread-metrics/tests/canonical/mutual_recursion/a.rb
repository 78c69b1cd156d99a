def is_even(n)
  if n == 0
    return true
  end
  return is_odd(n - 1)
end

def is_odd(n)
  if n == 0
    return false
  end
  return is_even(n - 1)
end
