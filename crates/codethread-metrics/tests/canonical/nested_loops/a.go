package p

func countPairs(xs, ys []int) int {
	count := 0
	for _, x := range xs {
		for _, y := range ys {
			if x == y && x > 0 {
				count++
			}
		}
	}
	return count
}
