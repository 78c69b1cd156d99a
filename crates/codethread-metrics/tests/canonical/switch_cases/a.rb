def name(n)
  case n
  when 1
    return "one"
  when 2
    return "two"
  when 3
    return "three"
  else
    return "many"
  end
end
