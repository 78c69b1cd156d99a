<?php
function score($xs) {
  $n = 0;
  foreach ($xs as $x) {
    switch ($x) {
      case 1:
        $n += 1;
        break;
      case 2:
        $n += 2;
        break;
      default:
        $n += 0;
    }
  }
  return $n;
}
