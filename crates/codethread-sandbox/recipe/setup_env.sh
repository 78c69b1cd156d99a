#!/bin/bash
# Environment layer of a codethread sandbox image, run once per environment inside `docker build`
# (network: host). It does what SWE-bench's environment script does (`conda create -n testbed
# python=X [packages]`, `pip install -r requirements.txt`, `pip install <pip_packages>`) with conda
# replaced by a venv of the Debian release's python3 at the path conda would use
# (/opt/miniconda3/envs/testbed), and a conda stand-in that activates it.
# Inputs: /ctx (the build context): env.conf (PYTHON, HTTPBIN), conda.txt (the spec's conda
# packages as pip reads them), requirements.txt and pip.txt (the spec's pip_packages), one
# requirement per line, the recipe files, and host-ca.crt (the host's CA bundle, for pip during
# the build only).
set -euxo pipefail
. /ctx/env.conf
export PIP_CERT=/ctx/host-ca.crt REQUESTS_CA_BUNDLE=/ctx/host-ca.crt PIP_DISABLE_PIP_VERSION_CHECK=1 \
  PIP_NO_CACHE_DIR=1 PIP_ROOT_USER_ACTION=ignore

# The spec's major.minor must be what the Debian release provides.
test "$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')" = "$PYTHON"

# conda stand-in: `source /opt/miniconda3/bin/activate` and `conda activate testbed`, as the eval
# scripts call them.
install -d /opt/miniconda3/bin /opt/miniconda3/condabin /opt/miniconda3/etc/profile.d /opt/miniconda3/envs
install -m 644 /ctx/conda.sh /opt/miniconda3/etc/profile.d/conda.sh
install -m 644 /ctx/activate /opt/miniconda3/bin/activate
install -m 755 /ctx/conda /opt/miniconda3/bin/conda
ln -sf ../bin/conda /opt/miniconda3/condabin/conda
install -m 755 /ctx/entrypoint.sh /usr/local/bin/sweb-entrypoint
# As the upstream environment images: interactive shells land in the testbed environment.
echo "source /opt/miniconda3/etc/profile.d/conda.sh && conda activate testbed" > /root/.bashrc

python3 -m venv /opt/miniconda3/envs/testbed
source /opt/miniconda3/bin/activate
conda activate testbed
# What conda's python brings: pip, setuptools, wheel.
python -m pip install -q pip==24.2 setuptools==75.1.0 wheel==0.44.0
# In SWE-bench's order: conda create with the packages, requirements.txt, pip_packages.
for f in conda.txt requirements.txt pip.txt; do
  if [ -s "/ctx/$f" ]; then python -m pip install -r "/ctx/$f"; fi
done
python -m pip freeze --all > /opt/miniconda3/envs/testbed/env.freeze.txt
conda deactivate

# httpbin.org stand-in (own venv on the system python, outside the testbed environment), for
# repositories whose tests call httpbin.org: graded containers have no network.
if [ "${HTTPBIN:-0}" = 1 ]; then
  python3 -m venv /opt/httpbin
  /opt/httpbin/bin/python -m pip install -q pip==24.2
  /opt/httpbin/bin/python -m pip install -q -r /ctx/httpbin-requirements.txt
  install -m 644 /ctx/httpbin_serve.py /opt/httpbin/serve.py
  /opt/httpbin/bin/python - <<'PY'
import trustme
ca = trustme.CA(organization_name="codethread sandbox httpbin CA")
cert = ca.issue_cert("httpbin.org", "www.httpbin.org", "127.0.0.1")
ca.cert_pem.write_to_path("/opt/httpbin/ca.pem")
cert.private_key_pem.write_to_path("/opt/httpbin/server.key")
with open("/opt/httpbin/server.pem", "wb") as f:
    for blob in cert.cert_chain_pems:
        f.write(blob.bytes())
PY
  # Trust the stand-in's CA inside the testbed environment (sweb_local_ca.py).
  SP=$(/opt/miniconda3/envs/testbed/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  install -m 644 /ctx/sweb_local_ca.py "$SP/_sweb_local_ca.py"
  echo "import _sweb_local_ca" > "$SP/_sweb_local_ca.pth"
  /opt/httpbin/bin/python -m pip freeze > /opt/httpbin/freeze.txt
fi
rm -rf /root/.cache /tmp/*
