def doubled(xs):
    return list(map(lambda x: x * 2, xs))
