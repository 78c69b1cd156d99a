const inc = (x) => x + 1;
