<?php
function check($a, $b, $c, $d) {
  if ($a && $b && $c || $d) {
    return 1;
  }
  return 0;
}
