package p

func find(grid [][]int, target int) bool {
	found := false
outer:
	for _, row := range grid {
		for _, cell := range row {
			if cell == target {
				found = true
				break outer
			}
		}
	}
	return found
}
