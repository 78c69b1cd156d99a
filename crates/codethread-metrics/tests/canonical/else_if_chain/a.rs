fn sign(x: i32) -> i32 {
    if x < 0 {
        return -1;
    } else if x == 0 {
        return 0;
    } else if x < 10 {
        return 1;
    } else {
        return 2;
    }
}
