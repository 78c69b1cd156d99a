def count_truthy(xs)
  n = 0
  xs.each do |x|
    if x
      n += 1
    end
  end
  return n
end
