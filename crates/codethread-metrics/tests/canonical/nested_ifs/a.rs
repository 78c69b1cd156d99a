fn pick(a: bool, b: bool) -> i32 {
    if a {
        if b {
            return 1;
        } else {
            return 2;
        }
    }
    return 3;
}
