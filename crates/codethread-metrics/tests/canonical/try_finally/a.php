<?php
function close_all($xs) {
  $n = 0;
  try {
    foreach ($xs as $x) {
      $x->close();
      $n += 1;
    }
  } finally {
    log_it($n);
  }
  return $n;
}
