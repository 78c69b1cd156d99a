def load(p, retry):
    try:
        return read(p)
    except IOError:
        if retry:
            return read(p)
        return None
    except ValueError:
        return None
