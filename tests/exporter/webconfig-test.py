#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pcieaudit-cli exporter --web-config, with curl as the oracle.

Certificates are made here by openssl (two CAs; a server certificate, a
client certificate of each CA), bcrypt hashes by htpasswd -B (apache2-utils,
APR's bcrypt, not libcrypt). Each configuration runs one exporter on the
H200 guest fixture (--sysfs) and curl scrapes it:
  - TLS: https answers 200, plain http gets no HTTP answer;
  - min_version TLS13: curl --tls-max 1.2 is refused, TLS 1.3 answers;
  - RequireAndVerifyClientCert: a client certificate of the configured CA
    answers, none and one of another CA are refused; VerifyClientCertIfGiven
    takes none, refuses another CA's; RequireAnyClientCert takes another CA's
    and refuses none;
  - basic auth: right password 200, wrong, unknown user and missing 401
    with WWW-Authenticate: Basic;
  - headers: the configured ones on 200 and 401 answers;
  - a flood of wrong passwords from 8 clients: a cached pair's scrape is
    answered within 1 s;
  - socket activation (systemd-socket-activate): TLS on the passed socket;
  - every refusal (unknown key, wrong type, malformed YAML, unreadable
    certificate, a key of another certificate, a bad bcrypt hash, a header
    exporter-toolkit refuses, ...): exit 9 with the key or file named, and
    nothing ever listening."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exporter_client as ec  # noqa: E402

FIXTURE = os.path.join(ec.FIXTURES, "h200-vm-guest")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def make_pki(d):
    def key(name):
        run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt",
             "ec_paramgen_curve:P-256", "-out", os.path.join(d, name + ".key")])

    def ca(name):
        key(name)
        run(["openssl", "req", "-x509", "-new", "-key", os.path.join(d, name + ".key"),
             "-subj", "/CN=" + name, "-days", "2", "-out", os.path.join(d, name + ".crt")])

    def leaf(name, issuer, ext):
        key(name)
        run(["openssl", "req", "-new", "-key", os.path.join(d, name + ".key"),
             "-subj", "/CN=" + name, "-out", os.path.join(d, name + ".csr")])
        with open(os.path.join(d, name + ".ext"), "w") as f:
            f.write(ext)
        run(["openssl", "x509", "-req", "-in", os.path.join(d, name + ".csr"),
             "-CA", os.path.join(d, issuer + ".crt"), "-CAkey", os.path.join(d, issuer + ".key"),
             "-CAcreateserial", "-days", "2", "-extfile", os.path.join(d, name + ".ext"),
             "-out", os.path.join(d, name + ".crt")])

    ca("ca")
    ca("otherca")
    leaf("server", "ca", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
    leaf("client", "ca", "extendedKeyUsage=clientAuth\n")
    leaf("stranger", "otherca", "extendedKeyUsage=clientAuth\n")


def bcrypt(password):
    out = run(["htpasswd", "-nbBC", "5", "", password]).stdout
    return out.strip().lstrip(":")


def curl(url, d, *extra):
    """(HTTP status or None, headers text, curl's exit code)."""
    p = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-D", "-", "--max-time", "10",
                        "--cacert", os.path.join(d, "ca.crt")] + list(extra) + [url],
                       capture_output=True, text=True)
    status = None
    for line in p.stdout.splitlines():
        if line.startswith("HTTP/"):
            status = int(line.split()[1])
    return status, p.stdout, p.returncode


class Exporter:
    def __init__(self, d, config_text, name="web.yml"):
        self.path = os.path.join(d, name)
        with open(self.path, "w") as f:
            f.write(config_text)
        self.proc, url = ec.start(["--sysfs", FIXTURE, "--interval", "3600",
                                   "--web-config", self.path])
        self.port = int(url.rsplit(":", 1)[1].split("/")[0])
        self.https = "https://127.0.0.1:%d/metrics" % self.port
        self.http = "http://127.0.0.1:%d/metrics" % self.port

    def __enter__(self):
        return self

    def __exit__(self, *a):
        rc = ec.stop(self.proc)
        if rc != 0:
            fail("%s: exit %s after SIGTERM" % (self.path, rc))


def expect(what, got, want):
    if got != want:
        fail("%s: got %r, want %r" % (what, got, want))
    else:
        print("ok:", what, flush=True)


def tls_cases(d):
    c = os.path.join(d, "client.crt"), os.path.join(d, "client.key")
    s = os.path.join(d, "stranger.crt"), os.path.join(d, "stranger.key")
    mine = ["--cert", c[0], "--key", c[1]]
    other = ["--cert", s[0], "--key", s[1]]
    base = "tls_server_config:\n  cert_file: server.crt\n  key_file: %s/server.key\n" % d

    with Exporter(d, base) as e:
        expect("TLS: https answers", curl(e.https, d)[0], 200)
        st, _, rc = curl(e.http, d)
        expect("TLS: plain http gets no HTTP answer", st is None and rc != 0, True)
    with Exporter(d, base + "  min_version: TLS13\n") as e:
        expect("min_version TLS13: curl --tls-max 1.2 refused",
               curl(e.https, d, "--tls-max", "1.2")[0], None)
        expect("min_version TLS13: TLS 1.3 answers",
               curl(e.https, d, "--tlsv1.3")[0], 200)
    with Exporter(d, base + "  max_version: TLS12\n") as e:
        expect("max_version TLS12: curl --tlsv1.3 refused",
               curl(e.https, d, "--tlsv1.3")[0], None)
        expect("max_version TLS12: TLS 1.2 answers", curl(e.https, d)[0], 200)
    verify = base + "  client_ca_file: ca.crt\n  client_auth_type: %s\n"
    with Exporter(d, verify % "RequireAndVerifyClientCert") as e:
        expect("RequireAndVerify: the CA's client answers", curl(e.https, d, *mine)[0], 200)
        expect("RequireAndVerify: no client certificate refused", curl(e.https, d)[0], None)
        expect("RequireAndVerify: another CA's client refused",
               curl(e.https, d, *other)[0], None)
    with Exporter(d, verify % "VerifyClientCertIfGiven") as e:
        expect("VerifyIfGiven: none answers", curl(e.https, d)[0], 200)
        expect("VerifyIfGiven: the CA's client answers", curl(e.https, d, *mine)[0], 200)
        expect("VerifyIfGiven: another CA's client refused",
               curl(e.https, d, *other)[0], None)
    with Exporter(d, base + "  client_auth_type: RequireAnyClientCert\n") as e:
        expect("RequireAny: another CA's client answers", curl(e.https, d, *other)[0], 200)
        expect("RequireAny: none refused", curl(e.https, d)[0], None)


def socket_activation(d):
    """TLS on the socket systemd passes, as pcieaudit-exporter.socket does."""
    path = os.path.join(d, "web.yml")
    with open(path, "w") as f:
        f.write("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n")
    port = ec.free_port()
    p = subprocess.Popen(["systemd-socket-activate", "-l", "127.0.0.1:%d" % port, ec.CLI,
                          "exporter", "--sysfs", FIXTURE, "--web-config", path],
                         stderr=subprocess.PIPE, text=True)
    st = None
    for _ in range(100):
        st = curl("https://127.0.0.1:%d/metrics" % port, d)[0]
        if st == 200:
            break
        time.sleep(0.2)
    p.terminate()
    err = p.communicate(timeout=10)[1]
    expect("socket activation: https on the passed socket", st, 200)
    expect("socket activation: the exporter took the passed socket",
           "on the socket systemd passed" in err, True)


def auth_cases(d):
    cfg = ("basic_auth_users:\n  alice: '%s'\n  bob: %s\n"
           "http_server_config:\n  headers:\n    X-Frame-Options: deny\n"
           "    Content-Security-Policy: \"default-src 'none'\"\n"
           "    X-XSS-Protection: ''\n" % (bcrypt("s3cret"), bcrypt("hunter2")))
    with Exporter(d, cfg) as e:
        st, hdr, _ = curl(e.http, d, "-u", "alice:s3cret")
        expect("basic auth: alice's password", st, 200)
        expect("headers: X-Frame-Options on 200", "X-Frame-Options: deny" in hdr, True)
        expect("headers: Content-Security-Policy on 200",
               "Content-Security-Policy: default-src 'none'" in hdr, True)
        expect("headers: a blank one unset", "X-XSS-Protection" in hdr, False)
        expect("basic auth: bob's password", curl(e.http, d, "-u", "bob:hunter2")[0], 200)
        expect("basic auth: alice's again (cached)",
               curl(e.http, d, "-u", "alice:s3cret")[0], 200)
        for what, args in (("wrong password", ["-u", "alice:hunter2"]),
                           ("unknown user", ["-u", "carol:s3cret"]),
                           ("missing", []),
                           ("not basic", ["-H", "Authorization: Bearer s3cret"])):
            st, hdr, _ = curl(e.http, d, *args)
            expect("basic auth: %s is 401" % what, st, 401)
            expect("basic auth: %s asks for Basic" % what,
                   "WWW-Authenticate: Basic" in hdr, True)
        st, hdr, _ = curl(e.http.replace("/metrics", "/"), d)
        expect("basic auth: / is 401 too", st, 401)
        expect("headers: X-Frame-Options on 401", "X-Frame-Options: deny" in hdr, True)


def flood_case(d):
    """A flood of wrong passwords (each a bcrypt of cost 12, ~0.2-0.4 s
    here) from 8 clients at once: a scrape whose pair is cached is still
    answered within 1 s (idle-test's bound), every time; the flood gets 401,
    or 429 when another bcrypt is running."""
    import base64
    import http.client
    import threading

    with Exporter(d, "basic_auth_users:\n  alice: '%s'\n" %
                  run(["htpasswd", "-nbBC", "12", "", "s3cret"]).stdout.strip().lstrip(":")) as e:
        expect("flood: alice's first scrape (uncached)",
               curl(e.http, d, "-u", "alice:s3cret")[0], 200)
        stop = time.monotonic() + 6
        wrong = "Basic " + base64.b64encode(b"alice:guess").decode()
        sent = [0]
        flood_statuses = set()

        def flood():
            while time.monotonic() < stop:
                try:
                    c = http.client.HTTPConnection("127.0.0.1", e.port, timeout=10)
                    c.request("GET", "/metrics", headers={"Authorization": wrong})
                    r = c.getresponse()
                    r.read()
                    flood_statuses.add(r.status)
                    c.close()
                    sent[0] += 1
                except OSError:
                    pass

        threads = [threading.Thread(target=flood) for _ in range(8)]
        for t in threads:
            t.start()
        time.sleep(1)
        worst = 0.0
        statuses = set()
        while time.monotonic() < stop - 0.5:
            t0 = time.monotonic()
            statuses.add(curl(e.http, d, "-u", "alice:s3cret")[0])
            worst = max(worst, time.monotonic() - t0)
            time.sleep(0.2)
        for t in threads:
            t.join()
        print("flood: %d wrong-password requests, worst cached scrape %.3f s" %
              (sent[0], worst), flush=True)
        expect("flood: cached scrapes answered 200", statuses, {200})
        expect("flood: wrong passwords get 401, or 429 while a bcrypt runs",
               flood_statuses <= {401, 429} and 401 in flood_statuses, True)
        expect("flood: cached scrapes within 1 s", worst < 1.0, True)


def listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def refusals(d):
    h = bcrypt("x")
    tls = "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
    with open(os.path.join(d, "garbage.crt"), "w") as f:
        f.write("-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n")
    # Unreadable even for root: a directory where the key should be.
    os.makedirs(os.path.join(d, "keydir.key"), exist_ok=True)
    cases = [
        ("unknown top key", "basic_auth_user:\n  a: '%s'\n" % h, "basic_auth_user"),
        ("unknown TLS key", tls + "  cert_fil: x\n", "cert_fil"),
        ("unsupported key", tls + "  cipher_suites: [TLS_AES_128_GCM_SHA256]\n",
         "cipher_suites"),
        ("rate_limit", "rate_limit:\n  interval: 1s\n  burst: 1\n", "rate_limit"),
        ("wrong type", "tls_server_config:\n  cert_file: [a, b]\n", "cert_file"),
        ("section not a mapping", "basic_auth_users: alice\n", "basic_auth_users"),
        ("malformed YAML", "tls_server_config:\n  cert_file: 'a\n", "YAML"),
        ("missing cert file", tls.replace("server.crt", "nosuch.crt"), "nosuch.crt"),
        ("unreadable key", tls.replace("server.key", "keydir.key"), "keydir.key"),
        ("garbage certificate", tls.replace("server.crt", "garbage.crt"), "garbage.crt"),
        ("key of another certificate", tls.replace("server.key", "client.key"), "client.key"),
        ("key without certificate", "tls_server_config:\n  key_file: server.key\n", "cert_file"),
        ("client CA garbage", tls + "  client_ca_file: garbage.crt\n"
         "  client_auth_type: RequireAndVerifyClientCert\n", "garbage.crt"),
        ("client CA without auth type", tls + "  client_ca_file: ca.crt\n", "client_auth_type"),
        ("verify without CA", tls + "  client_auth_type: RequireAndVerifyClientCert\n",
         "client_ca_file"),
        ("bad auth type", tls + "  client_auth_type: Require\n", "client_auth_type"),
        ("bad TLS version", tls + "  min_version: TLS14\n", "min_version"),
        ("min above max", tls + "  min_version: TLS13\n  max_version: TLS12\n", "min_version"),
        ("bad bcrypt hash", "basic_auth_users:\n  alice: '%s'\n" % h[:-1], "alice"),
        ("sha512crypt, not bcrypt", "basic_auth_users:\n  alice: '%s'\n" %
         run(["openssl", "passwd", "-6", "x"]).stdout.strip(), "alice"),
        ("plain password", "basic_auth_users:\n  alice: s3cret\n", "alice"),
        ("header not allowed", "http_server_config:\n  headers:\n    Content-Type: x\n",
         "Content-Type"),
        ("Authorization header", "http_server_config:\n  headers:\n    Authorization: x\n",
         "Authorization"),
        ("header value not allowed",
         "http_server_config:\n  headers:\n    X-Content-Type-Options: sniff\n",
         "X-Content-Type-Options"),
        ("http2 not a boolean", "http_server_config:\n  http2: maybe\n", "http2"),
    ]
    for what, text, word in cases:
        path = os.path.join(d, "bad.yml")
        with open(path, "w") as f:
            f.write(text)
        port = ec.free_port()
        p = subprocess.Popen([ec.CLI, "exporter", "--sysfs", FIXTURE, "--web-config", path,
                              "--listen", "127.0.0.1:%d" % port],
                             stderr=subprocess.PIPE, text=True)
        try:
            err = p.communicate(timeout=30)[1]
        except subprocess.TimeoutExpired:
            up = listening(port)
            p.kill()
            p.communicate()
            fail("%s: still running after 30 s (listening: %s)" % (what, up))
            continue
        if p.returncode != 9 or word not in err or "--web-config" not in err:
            fail("%s: exit %d, want 9 naming %r: %s" % (what, p.returncode, word, err.strip()))
        else:
            print("ok: refused, %s: %s" % (what, err.strip().split("\n")[-1]), flush=True)
    # A file that is not there at all, and the good ones still start.
    p = subprocess.run([ec.CLI, "exporter", "--sysfs", FIXTURE, "--web-config",
                        os.path.join(d, "nosuch.yml")], capture_output=True, text=True, timeout=30)
    expect("a missing --web-config: exit 9", p.returncode, 9)


def main():
    for tool in ("openssl", "htpasswd", "curl"):
        if not shutil.which(tool):
            print("webconfig-test: %s is missing (make deps)" % tool)
            return 1
    t0 = time.monotonic()
    d = tempfile.mkdtemp(prefix="pa-webcfg-")
    try:
        make_pki(d)
        with Exporter(d, "") as e:
            expect("an empty web config: plain http answers", curl(e.http, d)[0], 200)
        tls_cases(d)
        if shutil.which("systemd-socket-activate"):
            socket_activation(d)
        auth_cases(d)
        flood_case(d)
        refusals(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    print("webconfig-test: %d failures, %.1f s" % (len(failures), time.monotonic() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
