<?php
function pick($a, $b) {
  $x = 0;
  if ($a) {
    $x = $b ? 1 : 2;
  }
  return $x;
}
