#!/usr/bin/env python3
"""Issue 31, items 3 and 11: peak memory of the release `metrics` example on
files that were refused (one unit of 1 MB and more) or never chunked (PHP,
one-line JavaScript and C), at 1, 4 and 16 MB; `jsiife`, a bundle's
wrapper function, is a unit that is not cut inside (parsed whole).

Usage: scripts/chunk_shapes.py [SIZES_MB...]   (default: 1 4 16)
Needs: cargo build --release --example metrics; /usr/bin/time.
Prints one line per shape and size: bytes, peak RSS, RSS / bytes, function
records, functions written, seconds, exit status.
"""
import json
import os
import subprocess
import sys
import tempfile

BIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "examples", "metrics")

SHAPES = {
    # name: (file name, head, one function (n), tail)
    "php": ("x.php", "<?php\n\n",
            "function f{n}($a, $b) {{\n    $x = $a + $b * {n};\n    if ($x > $b) {{\n        return $x - $a;\n    }}\n    return $b;\n}}\n\n", ""),
    "js1": ("x.js", "", "function f{n}(a,b){{var x=a+b*{n};if(x>b){{return x-a}}return b}}", "\n"),
    "c1": ("x.c", "", "int f{n}(int a,int b){{int x=a+b*{n};if(x>b)return x-a;return b;}}", "\n"),
    "pyclass": ("x.py", "class A(object):\n    \"\"\"One class.\"\"\"\n\n",
                "    def f{n}(self, a, b):\n        x = a + b * {n}\n        if x > b:\n            return x - a\n        return b\n\n", ""),
    "javaclass": ("A.java", "package p;\n\npublic class A {\n",
                  "    public int f{n}(int a, int b) {{\n        int x = a + b * {n};\n        if (x > b) {{\n            return x - a;\n        }}\n        return b;\n    }}\n\n", "}\n"),
    "cguard": ("x.h", "#ifndef A_H\n#define A_H\n\n",
               "static int f{n}(int a, int b)\n{{\n    int x = a + b * {n};\n    if (x > b)\n        return x - a;\n    return b;\n}}\n\n", "#endif  /* A_H */\n"),
    "cppns": ("x.cc", "namespace a {\nnamespace b {\n\n",
              "int f{n}(int a, int b) {{\n  int x = a + b * {n};\n  if (x > b) return x - a;\n  return b;\n}}\n\n", "}  // namespace b\n}  // namespace a\n"),
    "rbmodule": ("x.rb", "module M\n  class C\n",
                 "    def f{n}(a, b)\n      x = a + b * {n}\n      return x - a if x > b\n      b\n    end\n\n", "  end\nend\n"),
    "jsiife": ("x.js", "(function (root) {\n  'use strict';\n",
               "  function f{n}(a, b) {{\n    var x = a + b * {n};\n    if (x > b) {{\n      return x - a;\n    }}\n    return b;\n  }}\n", "})(this);\n"),
}


def make(shape, size):
    name, head, func, tail = SHAPES[shape]
    parts = [head]
    total = len(head) + len(tail)
    n = 0
    while total < size:
        f = func.format(n=n)
        parts.append(f)
        total += len(f)
        n += 1
    parts.append(tail)
    return name, "".join(parts).encode(), n


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [1, 4, 16]
    print(f"{'shape':10} {'MB':>3} {'bytes':>10} {'peak MB':>8} {'x input':>8} {'records':>8} {'written':>8} {'s':>6} exit")
    for shape in SHAPES:
        for mb in sizes:
            name, data, n = make(shape, mb * 1_000_000)
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, name)
                with open(path, "wb") as f:
                    f.write(data)
                cmd = ["/usr/bin/time", "-f", "%M %e", BIN, "--max-file-bytes", str(64 << 20), path]
                p = subprocess.run(cmd, capture_output=True, text=True)
                last = p.stderr.strip().splitlines()[-1].split()
                peak_kb, secs = int(last[0]), float(last[1])
                records = 0
                for line in p.stdout.splitlines():
                    try:
                        records += int("qualname" in json.loads(line))
                    except (ValueError, TypeError):
                        pass
                print(f"{shape:10} {mb:>3} {len(data):>10} {peak_kb / 1024:>8.1f} {peak_kb * 1024 / len(data):>8.1f} {records:>8} {n:>8} {secs:>6.2f} {p.returncode}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
