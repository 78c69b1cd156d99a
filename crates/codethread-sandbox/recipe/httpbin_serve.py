# In-container stand-in for httpbin.org (codethread sandbox): the python httpbin app (the service
# httpbin.org runs) on 127.0.0.1:80 and :443. The entrypoint maps httpbin.org to 127.0.0.1 in
# /etc/hosts; the TLS cert is issued by a CA made at image build time, which is appended to the
# bundle named by REQUESTS_CA_BUNDLE. Old requests test suites (1.x-2.4) call httpbin.org directly.
import threading
from werkzeug.serving import make_server
from httpbin import app

D = "/opt/httpbin"
http = make_server("127.0.0.1", 80, app, threaded=True)
https = make_server("127.0.0.1", 443, app, threaded=True,
                    ssl_context=(f"{D}/server.pem", f"{D}/server.key"))
threading.Thread(target=https.serve_forever, daemon=True).start()
http.serve_forever()
