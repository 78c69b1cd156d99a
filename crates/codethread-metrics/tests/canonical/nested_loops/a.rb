def count_pairs(xs, ys)
  count = 0
  for x in xs
    for y in ys
      if x == y && x > 0
        count += 1
      end
    end
  end
  return count
end
