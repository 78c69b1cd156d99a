# codethread sandbox (requests images only; loaded by _sweb_local_ca.pth in the testbed env).
# The tests of old requests releases call https://httpbin.org and pass requests' *bundled* CA file
# explicitly, so the in-container httpbin stand-in's CA must be trusted in addition to whatever CA
# file the code under test loads. This wraps ssl.SSLContext.load_verify_locations to also load
# /opt/httpbin/ca.pem. No other behaviour changes.
import os
import ssl

_CA = "/opt/httpbin/ca.pem"
if os.path.exists(_CA) and not getattr(ssl.SSLContext, "_sweb_local_ca", False):
    _orig = ssl.SSLContext.load_verify_locations

    def load_verify_locations(self, cafile=None, capath=None, cadata=None):
        _orig(self, cafile, capath, cadata)
        try:
            _orig(self, _CA)
        except Exception:
            pass

    ssl.SSLContext.load_verify_locations = load_verify_locations
    ssl.SSLContext._sweb_local_ca = True
