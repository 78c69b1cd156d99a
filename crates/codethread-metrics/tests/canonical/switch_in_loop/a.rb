def score(xs)
  n = 0
  for x in xs
    case x
    when 1
      n += 1
    when 2
      n += 2
    else
      n += 0
    end
  end
  return n
end
