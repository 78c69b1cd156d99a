def label(n, unit)
  text = ""
  if n > 0
    text = "#{n} #{unit}#{n != 1 ? 's' : ''}"
  end
  return text
end
