<?php
function visit($groups) {
  foreach ($groups as $g) {
    array_walk($g, function ($x) {
      if ($x > 0) {
        handle($x);
      }
    });
  }
}
