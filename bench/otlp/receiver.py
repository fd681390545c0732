"""A minimal OTLP/HTTP receiver for the benchmark: answers every request with an empty 200
as soon as its body is read (keeps no data), so what is measured is the exporter's cost.
Prints its URL on the first line of stdout."""

import socket


def serve(conn):
    with conn:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(body) < length:
            chunk = conn.recv(65536)
            if not chunk:
                return
            body += chunk
        conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")


def main():
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(128)
    print(f"http://127.0.0.1:{server.getsockname()[1]}", flush=True)
    while True:
        conn, _ = server.accept()
        # One call at a time (the benchmark is sequential): no thread start per request.
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        serve(conn)


if __name__ == "__main__":
    main()
