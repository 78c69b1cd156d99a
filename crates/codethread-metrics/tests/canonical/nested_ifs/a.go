package p

func pick(a, b bool) int {
	if a {
		if b {
			return 1
		} else {
			return 2
		}
	}
	return 3
}
