<?php
function load($p, $retry) {
  try {
    return read($p);
  } catch (IOException $e) {
    if ($retry) {
      return read($p);
    }
    return null;
  } catch (ValueError $e) {
    return null;
  }
}
