fn doubled(xs: &[i32]) -> Vec<i32> {
    xs.iter().map(|x| x * 2).collect()
}
