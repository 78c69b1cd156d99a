package p

func is_even(n int) bool {
	if n == 0 {
		return true
	}
	return is_odd(n - 1)
}

func is_odd(n int) bool {
	if n == 0 {
		return false
	}
	return is_even(n - 1)
}
