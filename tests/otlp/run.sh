#!/bin/sh
# Runs test_otlp.py: the built tools export their audit records to a small OTLP/HTTP
# receiver that decodes them with the official OTLP definitions (PyPI opentelemetry-proto),
# in its own virtual environment.
# Usage: tests/otlp/run.sh [TARGET_DIR]   (default: <workspace>/target/debug; needs kvk-cli,
# rvo-cli and fake-upstream built there). The venv lives in $OTLP_TEST_VENV (default:
# <workspace>/target/otlp-venv) and is reused.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
target=${1:-$root/target/debug}
venv=${OTLP_TEST_VENV:-$root/target/otlp-venv}
probe='from opentelemetry.proto.collector.trace.v1 import trace_service_pb2'
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "$probe" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'opentelemetry-proto>=1.30' protobuf
fi
exec "$venv/bin/python" "$here/test_otlp.py" "$target"
