<?php
function sign($x) {
  if ($x < 0) {
    return -1;
  } elseif ($x == 0) {
    return 0;
  } elseif ($x < 10) {
    return 1;
  } else {
    return 2;
  }
}
