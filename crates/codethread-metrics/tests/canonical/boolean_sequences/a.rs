fn check(a: bool, b: bool, c: bool, d: bool) -> i32 {
    if a && b && c || d {
        return 1;
    }
    0
}
