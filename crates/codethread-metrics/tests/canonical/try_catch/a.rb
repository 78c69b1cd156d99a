def load(p, retry)
  begin
    return read(p)
  rescue IOError
    if retry
      return read(p)
    end
    return nil
  rescue ArgumentError
    return nil
  end
end
