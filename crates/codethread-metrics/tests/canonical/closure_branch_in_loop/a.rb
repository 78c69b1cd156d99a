def visit(groups)
  for g in groups
    g.each do |x|
      if x > 0
        handle(x)
      end
    end
  end
end
