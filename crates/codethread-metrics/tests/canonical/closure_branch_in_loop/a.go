package p

func visit(groups [][]int) {
	for _, g := range groups {
		each(g, func(x int) {
			if x > 0 {
				handle(x)
			}
		})
	}
}
