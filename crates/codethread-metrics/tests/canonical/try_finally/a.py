def close_all(xs):
    n = 0
    try:
        for x in xs:
            x.close()
            n += 1
    finally:
        log(n)
    return n
