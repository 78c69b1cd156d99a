def drain(q)
  n = 0
  begin
    n += 1
  end while q.pop && n < 10
  return n
end
