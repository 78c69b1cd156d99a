package p

func check(a, b, c, d bool) int {
	if a && b && c || d {
		return 1
	}
	return 0
}
