def count_truthy(xs):
    return sum(map(lambda x: 1 if x else 0, xs))
