# Print the PEP 517 build requirements of the project at argv[1] (one per line), so the instance
# layer can put them in /opt/wheelhouse for offline re-installs at eval time. Projects without a
# [build-system] table get pip's default (setuptools>=40.8.0, wheel).
import os, sys
try:
    import tomllib
except ImportError:
    from pip._vendor import tomli as tomllib
p = os.path.join(sys.argv[1], "pyproject.toml")
reqs = None
if os.path.exists(p):
    with open(p, "rb") as f:
        reqs = tomllib.load(f).get("build-system", {}).get("requires")
for r in reqs if reqs is not None else ["setuptools>=40.8.0", "wheel"]:
    print(r)
