<?php
function doubled($xs) {
  return array_map(fn($x) => $x * 2, $xs);
}
