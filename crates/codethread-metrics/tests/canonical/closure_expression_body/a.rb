def doubled(xs)
  return xs.map { |x| x * 2 }
end
