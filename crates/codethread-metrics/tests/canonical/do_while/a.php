<?php
function drain($q) {
  $n = 0;
  do {
    $n++;
  } while ($q->pop() && $n < 10);
  return $n;
}
