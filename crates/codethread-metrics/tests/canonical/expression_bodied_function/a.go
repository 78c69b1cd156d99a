package p

func inc(x int) int {
	return x + 1
}
