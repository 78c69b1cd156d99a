<?php
function inc($x) {
    return $x + 1;
}
