#!/usr/bin/env python3
"""Serve a folder of .tflite models with manifests on loopback (python3 standard library only).

    python3 Scripts/serve_models.py DIR PORT     (PORT 0 picks a free port)

Routes (the protocol litevision's ModelManager speaks):
  GET /models/{name}.json  -> {"name", "version", "size", "sha256", "url": "files/{name}.tflite"}
                              ETag; If-None-Match -> 304 Not Modified
  GET /files/{name}.tflite -> the file; strong ETag and Last-Modified;
                              Range: bytes=N- / N-M with If-Range -> 206 Partial Content
                              (If-Range not matching -> 200 with the whole file), 416 when unsatisfiable
The version is the content of DIR/{name}.version when present, else the first 12 hex digits of
the file's SHA-256. The folder is rescanned on every request: replacing a file publishes a new
version. The first line on stdout is "serving DIR on http://127.0.0.1:PORT/".
"""
import email.utils
import hashlib
import http.server
import json
import os
import re
import signal
import sys
import threading

NAME = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$")


class ModelFolder:
    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.lock = threading.Lock()
        self.digests = {}  # path -> (size, mtime_ns, sha256)

    def describe(self, name):
        """(path, size, sha256, version, mtime) of DIR/name.tflite, or None."""
        if not NAME.match(name):
            return None
        path = os.path.join(self.root, name + ".tflite")
        try:
            stat = os.stat(path)
        except OSError:
            return None
        key = (stat.st_size, stat.st_mtime_ns)
        with self.lock:
            cached = self.digests.get(path)
        if cached and cached[:2] == key:
            sha = cached[2]
        else:
            digest = hashlib.sha256()
            with open(path, "rb") as handle:
                for chunk in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(chunk)
            sha = digest.hexdigest()
            with self.lock:
                self.digests[path] = key + (sha,)
        version = sha[:12]
        version_path = os.path.join(self.root, name + ".version")
        if os.path.exists(version_path):
            with open(version_path, encoding="utf-8") as handle:
                candidate = handle.read().strip()
            if NAME.match(candidate):
                version = candidate
        return path, stat.st_size, sha, version, stat.st_mtime


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "litevision-serve-models"

    def log_message(self, fmt, *args):
        sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))

    def do_HEAD(self):
        self.handle_get(send_body=False)

    def do_GET(self):
        self.handle_get(send_body=True)

    def handle_get(self, send_body):
        path = self.path.split("?", 1)[0]
        match = re.match(r"^/models/([^/]+)\.json$", path)
        if match:
            return self.manifest(match.group(1), send_body)
        match = re.match(r"^/files/([^/]+)\.tflite$", path)
        if match:
            return self.model_file(match.group(1), send_body)
        self.reply(404, b"not found\n", [("Content-Type", "text/plain")], send_body)

    def manifest(self, name, send_body):
        info = self.server.folder.describe(name)
        if info is None:
            return self.reply(404, b"no such model\n", [("Content-Type", "text/plain")], send_body)
        _, size, sha, version, _ = info
        etag = '"m-%s-%s"' % (version, sha[:16])
        if self.headers.get("If-None-Match") == etag:
            return self.reply(304, b"", [("ETag", etag)], False)
        body = json.dumps({"name": name, "version": version, "size": size, "sha256": sha,
                           "url": "files/%s.tflite" % name}).encode()
        self.reply(200, body, [("ETag", etag), ("Content-Type", "application/json"),
                               ("Cache-Control", "no-cache")], send_body)

    def model_file(self, name, send_body):
        info = self.server.folder.describe(name)
        if info is None:
            return self.reply(404, b"no such model\n", [("Content-Type", "text/plain")], send_body)
        path, size, sha, _, mtime = info
        etag = '"%s"' % sha[:32]
        headers = [("ETag", etag), ("Last-Modified", email.utils.formatdate(mtime, usegmt=True)),
                   ("Accept-Ranges", "bytes"), ("Content-Type", "application/octet-stream")]
        start, end = 0, size - 1
        status = 200
        requested = self.headers.get("Range")
        if_range = self.headers.get("If-Range")
        if requested and (if_range is None or if_range == etag):
            match = re.match(r"^bytes=(\d+)-(\d*)$", requested.strip())
            if match:
                first = int(match.group(1))
                last = int(match.group(2)) if match.group(2) else size - 1
                if first >= size or last < first:
                    return self.reply(416, b"", [("Content-Range", "bytes */%d" % size)], False)
                start, end, status = first, min(last, size - 1), 206
                headers.append(("Content-Range", "bytes %d-%d/%d" % (start, end, size)))
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        if not send_body:
            return
        with open(path, "rb") as handle:
            handle.seek(start)
            remaining = end - start + 1
            while remaining > 0:
                chunk = handle.read(min(65536, remaining))
                if not chunk:
                    break
                self.wfile.write(chunk)
                remaining -= len(chunk)

    def reply(self, status, body, headers, send_body):
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body and body:
            self.wfile.write(body)


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: serve_models.py DIR PORT\n")
        return 2
    # A parent may have spawned us with these blocked; make SIGTERM/SIGINT stop the server.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    root, port = sys.argv[1], int(sys.argv[2])
    if not os.path.isdir(root):
        sys.stderr.write("serve_models.py: %s is not a directory\n" % root)
        return 2
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.folder = ModelFolder(root)
    print("serving %s on http://127.0.0.1:%d/" % (os.path.abspath(root), server.server_address[1]), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
