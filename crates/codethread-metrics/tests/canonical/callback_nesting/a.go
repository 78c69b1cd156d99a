package p

func countTruthy(xs []bool) int {
	n := 0
	each(xs, func(x bool) {
		if x {
			n++
		}
	})
	return n
}
