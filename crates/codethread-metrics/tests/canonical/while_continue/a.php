<?php
function sum_odd($n) {
  $total = 0;
  $i = 0;
  while ($i < $n) {
    $i += 1;
    if ($i % 2 == 0) {
      continue;
    }
    $total += $i;
  }
  return $total;
}
