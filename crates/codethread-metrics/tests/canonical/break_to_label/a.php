<?php
function find($grid, $target) {
  $found = false;
  foreach ($grid as $row) {
    foreach ($row as $cell) {
      if ($cell == $target) {
        $found = true;
        break 2;
      }
    }
  }
  return $found;
}
