#!/usr/bin/env python3
"""One Debian application through openssl.cnf: Python's ssl module on both
ends of a TLS connection on 127.0.0.1, in two processes, with OPENSSL_CONF
pointing at a config that activates the aeskit provider and prefers it
(default_properties = ?provider=aeskit).  The server sends a file, the client
sends one back; both SHA-256s are checked, and each process's aeskit
seal/open counters (written at exit through AESKIT_PROVIDER_STATS) must
cover the records.

usage: pyssl.py MODDIR [MiB]      exit 0 passed, 1 failed, 77 cannot run
"""
import hashlib
import os
import socket
import ssl
import subprocess
import sys
import tempfile

CONF = """openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[provider_sect]
default = default_sect
aeskit = aeskit_sect
[default_sect]
activate = 1
[aeskit_sect]
module = {module}
activate = 1
[evp_properties]
default_properties = ?provider=aeskit
"""


def role(argv):
    """Child process: 'server PORTFILE CERT KEY DOWN UPSIZE' or
    'client PORT DOWNSIZE UP'."""
    if argv[0] == "server":
        portfile, cert, key, down, upsize = argv[1:6]
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
        ls = socket.socket()
        ls.bind(("127.0.0.1", 0))
        ls.listen(1)
        ls.settimeout(60)
        with open(portfile + ".tmp", "w") as f:
            f.write(str(ls.getsockname()[1]))
        os.rename(portfile + ".tmp", portfile)
        conn, _ = ls.accept()
        conn.settimeout(60)
        s = ctx.wrap_socket(conn, server_side=True)
        with open(down, "rb") as f:
            s.sendall(f.read())
        h, n, want = hashlib.sha256(), 0, int(upsize)
        while n < want:
            b = s.recv(1 << 16)
            if not b:
                break
            h.update(b)
            n += len(b)
        print("server", s.version(), s.cipher()[0], "received", n, h.hexdigest())
        s.close()
    else:
        port, downsize, up = argv[1:4]
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        c = socket.create_connection(("127.0.0.1", int(port)), timeout=60)
        s = ctx.wrap_socket(c)
        h, n, want = hashlib.sha256(), 0, int(downsize)
        while n < want:
            b = s.recv(1 << 16)
            if not b:
                break
            h.update(b)
            n += len(b)
        with open(up, "rb") as f:
            s.sendall(f.read())
        print("client", s.version(), s.cipher()[0], "received", n, h.hexdigest())
        s.close()
    return 0


def stats(path):
    try:
        line = open(path).read().strip().splitlines()[-1]
    except (OSError, IndexError):
        return None
    d = dict(kv.split("=", 1) for kv in line.split())
    return int(d["seal"]), int(d["open"]), d["backend"]


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("server", "client"):
        return role(sys.argv[1:])
    moddir = os.path.abspath(sys.argv[1])
    mib = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    module = os.path.join(moddir, "aeskit.so")
    if not os.path.exists(module):
        print("SKIP: no", module)
        return 77
    w = tempfile.mkdtemp(prefix="akp-py.")
    conf = os.path.join(w, "openssl.cnf")
    with open(conf, "w") as f:
        f.write(CONF.format(module=module))
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    w + "/k.pem", "-out", w + "/c.pem", "-days", "2", "-subj", "/CN=localhost"],
                   check=True, capture_output=True)
    size = mib << 20
    down, up = w + "/down.bin", w + "/up.bin"
    for p in (down, up):
        with open(p, "wb") as f:
            f.write(os.urandom(size))
    sums = {p: hashlib.sha256(open(p, "rb").read()).hexdigest() for p in (down, up)}
    portfile = w + "/port"
    me = os.path.abspath(__file__)

    def env(name):
        e = dict(os.environ, OPENSSL_CONF=conf, AESKIT_PROVIDER_STATS=w + "/" + name + ".stats")
        return e

    srv = subprocess.Popen([sys.executable, me, "server", portfile, w + "/c.pem", w + "/k.pem",
                            down, str(size)], env=env("server"), stdout=subprocess.PIPE, text=True)
    for _ in range(200):
        if os.path.exists(portfile) or srv.poll() is not None:
            break
        subprocess.run(["sleep", "0.05"])
    port = open(portfile).read()
    cli = subprocess.run([sys.executable, me, "client", port, str(size), up], env=env("client"),
                         capture_output=True, text=True, timeout=120)
    sout, _ = srv.communicate(timeout=120)
    ok = True
    for name, out, want in (("client", cli.stdout, sums[down]), ("server", sout, sums[up])):
        f = out.split()
        got = f[-1] if f else ""
        st = stats(w + "/" + name + ".stats")
        print(" ", out.strip(), "| sha256", "ok" if got == want else "MISMATCH",
              "| aeskit seal/open/backend:", st)
        need = size // 16384
        if got != want or st is None or st[0] < need or st[1] < need:
            ok = False
    if cli.returncode or srv.returncode:
        print(cli.stderr[-2000:])
        ok = False
    subprocess.run(["rm", "-rf", w])
    print("python ssl:", "passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
