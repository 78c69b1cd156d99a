# Print, as one JSON object on stdout, the environment specifications of SWE-bench's harness
# (swebench < 5, whose harness builds images): MAP_REPO_VERSION_TO_SPECS, MAP_REPO_TO_REQS_PATHS,
# MAP_REPO_TO_INSTALL and REPLACE_REQ_PACKAGES, with the package's version. codethread's sandbox
# builds images from these, unchanged. Run with the Python that has that swebench importable.
import json
import sys

import swebench
from swebench.harness import constants as c

try:  # swebench 4.x keeps it beside the requirement rules
    from swebench.harness.test_spec.python import REPLACE_REQ_PACKAGES as replace
except Exception:  # noqa: BLE001 - older layouts, or that module's imports are missing
    replace = getattr(c, "REPLACE_REQ_PACKAGES", [])

out = {
    "swebench": getattr(swebench, "__version__", "unknown"),
    "specs": c.MAP_REPO_VERSION_TO_SPECS,
    "reqs_paths": getattr(c, "MAP_REPO_TO_REQS_PATHS", {}),
    "repo_install": getattr(c, "MAP_REPO_TO_INSTALL", {}),
    "replace_req_packages": [list(p) for p in replace],
}
json.dump(out, sys.stdout, default=str)
