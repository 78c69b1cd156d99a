const inc = (x: number): number => x + 1;
