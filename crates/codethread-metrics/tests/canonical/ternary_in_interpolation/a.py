def label(n, unit):
    text = ""
    if n > 0:
        text = f"{n} {unit}{'s' if n != 1 else ''}"
    return text
