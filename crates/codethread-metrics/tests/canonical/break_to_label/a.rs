fn find(grid: &[Vec<i32>], target: i32) -> bool {
    let mut found = false;
    'outer: for row in grid {
        for cell in row {
            if *cell == target {
                found = true;
                break 'outer;
            }
        }
    }
    found
}
