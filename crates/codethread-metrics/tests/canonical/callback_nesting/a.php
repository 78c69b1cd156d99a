<?php
function count_truthy($xs) {
  $n = 0;
  array_walk($xs, function ($x) use (&$n) {
    if ($x) {
      $n++;
    }
  });
  return $n;
}
