def inc(x) = x + 1
