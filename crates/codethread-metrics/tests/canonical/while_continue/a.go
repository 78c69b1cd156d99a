package p

func sumOdd(n int) int {
	total := 0
	i := 0
	for i < n {
		i++
		if i%2 == 0 {
			continue
		}
		total += i
	}
	return total
}
