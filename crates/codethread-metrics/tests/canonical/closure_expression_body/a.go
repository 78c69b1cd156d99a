package p

func doubled(xs []int) []int {
	return mapInts(xs, func(x int) int { return x * 2 })
}
