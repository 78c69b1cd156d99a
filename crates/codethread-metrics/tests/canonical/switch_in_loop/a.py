def score(xs):
    n = 0
    for x in xs:
        match x:
            case 1:
                n += 1
            case 2:
                n += 2
            case _:
                n += 0
    return n
