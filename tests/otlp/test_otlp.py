"""The family's audit records as a Logboek sees them (spec §11, AUDIT-20, AUDIT-21).

A small OTLP/HTTP receiver on 127.0.0.1 decodes every export with the official OTLP
protobuf definitions (PyPI ``opentelemetry-proto``); the built tools run against the
test-support fake upstream and export to it. Each case asserts the exact span fields and
attributes: a success, a refused call (77), an upstream failure (69), a mutation, several
data subjects, and a collector that refuses (74, nothing printed).

Usage: test_otlp.py TARGET_DIR   (with kvk-cli, rvo-cli and fake-upstream built there)
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
from opentelemetry.proto.trace.v1 import trace_pb2

TARGET = sys.argv[1]
CANARY = "kanarie-otlp-python-5e1f"
ACTIVITY = "https://register.example.nl/verwerkingen/42"
TRACE_ID = "0af7651916cd43dd8448eb211c80319c"
PARENT = "b7ad6b7169203331"
OK, UNSET, ERROR = (
    trace_pb2.Status.STATUS_CODE_OK,
    trace_pb2.Status.STATUS_CODE_UNSET,
    trace_pb2.Status.STATUS_CODE_ERROR,
)


class Receiver(BaseHTTPRequestHandler):
    """POST /v1/traces: decode, keep, answer with the server's current status."""

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        if self.path != "/v1/traces" or self.headers.get("content-type") != "application/x-protobuf":
            self.send_response(415)
            self.end_headers()
            return
        request = trace_service_pb2.ExportTraceServiceRequest.FromString(body)
        with self.server.lock:
            self.server.exports.append((dict(self.headers), body, request))
        self.send_response(self.server.status)
        self.send_header("content-type", "application/x-protobuf")
        answer = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


def start_receiver():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    server.lock = threading.Lock()
    server.exports = []
    server.status = 200
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def start_fake():
    fake = subprocess.Popen(
        [os.path.join(TARGET, "fake-upstream")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    env = {}
    for line in fake.stdout:
        # fake-upstream prints `export NAME=value` lines for the shell (and `#` comments).
        line = line.strip().removeprefix("export ")
        if "=" in line and not line.startswith("#"):
            name, url = line.split("=", 1)
            env[name] = url
            if "KVK_API_BASE" in env:
                break
    return fake, env


def take(receiver):
    with receiver.lock:
        exports, receiver.exports = receiver.exports, []
    return exports


def spans_of(exports):
    return [s for _, _, r in exports for rs in r.resource_spans for ss in rs.scope_spans for s in ss.spans]


def value(any_value):
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind)


def attributes(span):
    return {kv.key: value(kv.value) for kv in span.attributes}


def run(tool, args, env, sandbox):
    full = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": sandbox,
        "OVERHEID_AUDIT_EXPORT": "file,otlp",
        "OVERHEID_AUDIT_LOG": os.path.join(sandbox, "audit.jsonl"),
        "OVERHEID_PROCESSING_ACTIVITY_ID": ACTIVITY,
        "OTEL_EXPORTER_OTLP_HEADERS": f"authorization=Bearer%20{CANARY}",
        **env,
    }
    done = subprocess.run(
        [os.path.join(TARGET, tool), *args],
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    return done


def records(sandbox):
    path = os.path.join(sandbox, "audit.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def digest_of(record):
    digest = record["attributes"]["overheid.plan_digest"]
    check(len(digest) == 64 and all(c in "0123456789abcdef" for c in digest), digest)
    return digest


def expect_span(span, record, status, attrs, exit_code):
    """The span equals its file record, with exactly `attrs` (plus process.exit.code)."""
    check(span.trace_id.hex() == record["trace_id"], "trace_id")
    check(span.span_id.hex() == record["span_id"], "span_id")
    check(span.parent_span_id.hex() == record.get("parent_span_id", ""), "parent_span_id")
    check(span.name == record["name"], f"name {span.name!r}")
    check(span.kind == trace_pb2.Span.SPAN_KIND_INTERNAL, "kind")
    check(0 < span.start_time_unix_nano <= span.end_time_unix_nano, "times")
    check(span.status.code == status, f"status {span.status.code} != {status}")
    got = attributes(span)
    want = {**attrs, "process.exit.code": exit_code}
    check(got == want, f"attributes\n  got  {got}\n  want {want}")
    check({k: v for k, v in got.items() if k != "process.exit.code"} == record["attributes"],
          f"span attributes differ from the file record {record['attributes']}")


def main():
    receiver = start_receiver()
    collector = f"http://127.0.0.1:{receiver.server_address[1]}"
    fake, fake_env = start_fake()
    kvk = {
        "KVK_API_BASE": fake_env["KVK_API_BASE"],
        "KVK_API_KEY": "sleutel-otlp-test",
        "OTEL_EXPORTER_OTLP_ENDPOINT": collector,
        "TRACEPARENT": f"00-{TRACE_ID}-{PARENT}-01",
    }
    cases = 0
    try:
        # 1. A success: one span, exactly the record's attributes; resource and scope.
        with tempfile.TemporaryDirectory() as sandbox:
            done = run("kvk-cli", ["basisprofiel", "toon", "68750110"], kvk, sandbox)
            check(done.returncode == 0, f"success: {done.returncode} {done.stderr}")
            exports = take(receiver)
            check(len(exports) == 1, "one export")
            headers, body, request = exports[0]
            (span,), (record,) = spans_of(exports), records(sandbox)
            check(span.trace_id.hex() == TRACE_ID and span.parent_span_id.hex() == PARENT, "trace context")
            url = record["attributes"]["url.full"]
            check(url.startswith(fake_env["KVK_API_BASE"] + "/v1/basisprofielen/68750110"), url)
            expect_span(span, record, OK, {
                "dpl.core.processing_activity_id": ACTIVITY,
                "dpl.core.data_subject_id": "68750110",
                "dpl.core.data_subject_id_type": "KVK_NUMMER",
                "url.full": url,
                "http.response.status_code": 200,
                "http.response.body.size": record["attributes"]["http.response.body.size"],
                "overheid.plan_digest": digest_of(record),
            }, 0)
            resource = {kv.key: value(kv.value) for kv in request.resource_spans[0].resource.attributes}
            check(resource["service.name"] == "kvk-cli", f"resource {resource}")
            check(resource["service.version"] == record["tool_version"], "service.version")
            check(resource.get("host.name"), "host.name")
            scope = request.resource_spans[0].scope_spans[0].scope
            check(scope.name == "overheid-cli", "scope")
            check(headers.get("authorization", headers.get("Authorization")) == f"Bearer {CANARY}", "header sent")
            for place, text in [("stdout", done.stdout), ("stderr", done.stderr), ("span", body.decode("latin-1")),
                                ("file", json.dumps(record))]:
                check(CANARY not in text, f"canary in {place}")
                check("sleutel-otlp-test" not in text, f"KvK key in {place}")
            check("Test BV Donald" not in body.decode("latin-1"), "no response data in the span")
            cases += 1

        # 2. A refused call (session rule, 77): Unset, not Error; the attempted subject.
        with tempfile.TemporaryDirectory() as sandbox:
            done = run("kvk-cli", ["basisprofiel", "toon", "69599084"],
                       {**kvk, "KVK_SESSIE_NUMMER": "68750110"}, sandbox)
            check(done.returncode == 77, f"refusal: {done.returncode}")
            (span,), (record,) = spans_of(take(receiver)), records(sandbox)
            expect_span(span, record, UNSET, {
                "dpl.core.processing_activity_id": ACTIVITY,
                "dpl.core.data_subject_id": "69599084",
                "dpl.core.data_subject_id_type": "KVK_NUMMER",
                "error.code": "NIET_TOEGESTAAN",
            }, 77)
            check(span.status.message == "", "no status message on Unset")
            cases += 1

        # 3. An upstream failure (500 → 69): Error, with exception.* and the code as message.
        with tempfile.TemporaryDirectory() as sandbox:
            done = run("kvk-cli", ["basisprofiel", "toon", "90004973"], kvk, sandbox)
            check(done.returncode == 69, f"upstream failure: {done.returncode}")
            (span,), (record,) = spans_of(take(receiver)), records(sandbox)
            code = json.loads(done.stderr)["code"]
            attrs = record["attributes"]
            expect_span(span, record, ERROR, {
                "dpl.core.processing_activity_id": ACTIVITY,
                "dpl.core.data_subject_id": "90004973",
                "dpl.core.data_subject_id_type": "KVK_NUMMER",
                "url.full": attrs["url.full"],
                "http.response.status_code": 500,
                "http.response.body.size": attrs["http.response.body.size"],
                "overheid.plan_digest": digest_of(record),
                "error.code": code,
                "exception.type": code,
                "exception.message": json.loads(done.stderr)["title"],
            }, 69)
            check(span.status.message == code, "status message is the error code")
            cases += 1

        # 4. A mutation: the filing's span (plan digest), confirmed before it is filed.
        with tempfile.TemporaryDirectory() as sandbox:
            rvo = {"OTEL_EXPORTER_OTLP_ENDPOINT": collector, "RVO_DATA_DIR": os.path.join(sandbox, "data")}
            args = ["rapportage", "indienen", "68750110", "EBR-2027", "warmtepomp,led-verlichting",
                    "--peildatum", "2026-11-30"]
            done = run("rvo-cli", args, rvo, sandbox)
            check(done.returncode == 80, f"unconfirmed mutation: {done.returncode}")
            digest = json.loads(done.stdout)["plan_digest"]
            done = run("rvo-cli", [*args, f"--confirm={digest}"], rvo, sandbox)
            check(done.returncode == 0, f"mutation: {done.returncode} {done.stderr}")
            refused, filed = spans_of(take(receiver))
            first, second = records(sandbox)
            base = {
                "dpl.core.processing_activity_id": ACTIVITY,
                "dpl.core.data_subject_id": "68750110",
                "dpl.core.data_subject_id_type": "KVK_NUMMER",
                "overheid.plan_digest": digest,
            }
            expect_span(refused, first, UNSET, {**base, "error.code": "BEVESTIGING_VEREIST"}, 80)
            expect_span(filed, second, OK, {**base, **{k: v for k, v in second["attributes"].items()
                                                       if k.startswith("overheid.") and k not in base}}, 0)
            check(filed.name == "rvo-cli rapportage indienen", "mutation name")
            cases += 1

        # 5. Several data subjects: the call's span, then one child span per company.
        with tempfile.TemporaryDirectory() as sandbox:
            done = run("kvk-cli", ["zoek", "--naam", "Test"], {**kvk, "TRACEPARENT": ""}, sandbox)
            check(done.returncode == 0, f"zoeken: {done.returncode} {done.stderr}")
            found = []
            for result in json.loads(done.stdout)["resultaten"]:
                if result["kvkNummer"] not in found:
                    found.append(result["kvkNummer"])
            check(len(found) > 1, "several companies")
            exports = take(receiver)
            check(len(exports) == 1, "one export for the call and its children")
            spans, recs = spans_of(exports), records(sandbox)
            check(len(spans) == 1 + len(found) == len(recs), f"{len(spans)} spans for {found}")
            call = spans[0]
            check(call.parent_span_id == b"", "a new trace: the call has no parent")
            check("dpl.core.data_subject_id" not in attributes(call), "the call names no subject")
            for span, record, number in zip(spans[1:], recs[1:], found):
                check(span.trace_id == call.trace_id and span.parent_span_id == call.span_id, "child of the call")
                expect_span(span, record, OK, {
                    "dpl.core.processing_activity_id": ACTIVITY,
                    "dpl.core.data_subject_id": number,
                    "dpl.core.data_subject_id_type": "KVK_NUMMER",
                }, 0)
            cases += 1

        # 6. A collector that refuses (400): exit 74, nothing printed, no file record.
        with tempfile.TemporaryDirectory() as sandbox:
            receiver.status = 400
            done = run("kvk-cli", ["basisprofiel", "toon", "68750110"], kvk, sandbox)
            receiver.status = 200
            check(done.returncode == 74, f"refused collector: {done.returncode}")
            check(done.stdout == "", "nothing printed")
            check(json.loads(done.stderr)["code"] == "AUDIT_FOUT", done.stderr)
            check(len(take(receiver)) == 1, "a 400 is not retried")
            check(records(sandbox) == [], "no file record")
            cases += 1
    finally:
        fake.terminate()
        receiver.shutdown()
    print(f"otlp: {cases} cases passed")


if __name__ == "__main__":
    main()
