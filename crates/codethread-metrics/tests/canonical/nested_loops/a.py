def count_pairs(xs, ys):
    count = 0
    for x in xs:
        for y in ys:
            if x == y and x > 0:
                count += 1
    return count
