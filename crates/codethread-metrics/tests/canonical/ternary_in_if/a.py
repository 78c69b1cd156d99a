def pick(a, b):
    x = 0
    if a:
        x = 1 if b else 2
    return x
