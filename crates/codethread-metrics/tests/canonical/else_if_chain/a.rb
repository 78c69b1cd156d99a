def sign(x)
  if x < 0
    return -1
  elsif x == 0
    return 0
  elsif x < 10
    return 1
  else
    return 2
  end
end
