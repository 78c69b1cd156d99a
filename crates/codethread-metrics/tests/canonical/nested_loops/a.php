<?php
function count_pairs($xs, $ys) {
  $count = 0;
  foreach ($xs as $x) {
    foreach ($ys as $y) {
      if ($x == $y && $x > 0) {
        $count++;
      }
    }
  }
  return $count;
}
