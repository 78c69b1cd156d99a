def check(a, b, c, d):
    if a and b and c or d:
        return 1
    return 0
