def close_all(xs)
  n = 0
  begin
    for x in xs
      x.close
      n += 1
    end
  ensure
    log(n)
  end
  return n
end
