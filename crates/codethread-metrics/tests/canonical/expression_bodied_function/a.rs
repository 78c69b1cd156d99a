fn inc(x: i32) -> i32 {
    x + 1
}
