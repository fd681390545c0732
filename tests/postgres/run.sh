#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster: starts one on a free loopback port as a
# non-root user (Debian's postgresql; installed when missing and run as root), creates the
# database `records` with a password login, exports
#   OVERHEID_TEST_POSTGRES_URL=postgres://overheid:<password>@127.0.0.1:<port>/records
# OVERHEID_TEST_POSTGRES_CA (the CA of the server's TLS certificate, for sslmode=require) and
# OVERHEID_TEST_POSTGRES_SOCKET_URL (the same database over its Unix socket, trusted), runs
# the command (default: the store's PostgreSQL tests), and stops and removes the cluster.
#
#   tests/postgres/run.sh                                   # cargo test -p overheid-records postgres
#   tests/postgres/run.sh cargo test -p rvo-cli --test cli voorstel
#
# With OVERHEID_TEST_REQUIRE_POSTGRES=1 in the environment (as .ci/run sets) a test that would
# skip for want of the database fails instead.
set -euo pipefail
cd "$(dirname "$0")/../.."

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  else
    echo "tests/postgres/run.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2
    exit 69
  fi
fi

if ! command -v openssl >/dev/null && [ "$(id -u)" = 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null
fi

work=$(mktemp -d)
as=()
if [ "$(id -u)" = 0 ]; then
  # initdb refuses root: the cluster runs as nobody, in a directory of its own.
  chown nobody "$work"
  as=(runuser -u nobody --)
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
printf '%s\n' "$password" >"$work/pw"
[ ${#as[@]} = 0 ] || chown nobody "$work/pw"

# TLS for sslmode=require: a CA and a certificate for 127.0.0.1 made here; the tests trust the CA
# through SSL_CERT_FILE=$OVERHEID_TEST_POSTGRES_CA. Plain connections keep working.
tls() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=overheid test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$work/ca.key" -out "$work/ca.crt"
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$work/server.key" -out "$work/server.csr"
  printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$work/server.ext"
  openssl x509 -req -in "$work/server.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -CAcreateserial \
    -days 2 -extfile "$work/server.ext" -out "$work/server.crt"
  chmod 600 "$work/server.key"
  [ ${#as[@]} = 0 ] || chown nobody "$work/server.key" "$work/server.crt"
}

stop() {
  "${as[@]}" "$bin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT
tls 2>"$work/openssl.log" || { cat "$work/openssl.log" >&2; exit 1; }

"${as[@]}" "$bin/initdb" -D "$work/data" -U overheid --pwfile="$work/pw" \
  --auth-local=trust --auth-host=scram-sha-256 --no-sync >"$work/initdb.log" 2>&1 \
  || { cat "$work/initdb.log" >&2; exit 1; }
"${as[@]}" "$bin/pg_ctl" -D "$work/data" -l "$work/server.log" -w -t 30 \
  -o "-k $work -p $port -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 -c ssl=on -c ssl_cert_file=$work/server.crt -c ssl_key_file=$work/server.key" start >/dev/null \
  || { cat "$work/server.log" >&2; exit 1; }
"${as[@]}" "$bin/createdb" -h "$work" -p "$port" -U overheid records

export OVERHEID_TEST_POSTGRES_URL="postgres://overheid:$password@127.0.0.1:$port/records"
export OVERHEID_TEST_POSTGRES_CA="$work/ca.crt"
# The same database over its Unix-domain socket, where the cluster trusts the local user (one
# machine: no TCP, no SCRAM exchange); bench/proposals/applies.py compares the two.
export OVERHEID_TEST_POSTGRES_SOCKET_URL="postgresql://overheid@/records?host=$work&port=$port"
echo "tests/postgres/run.sh: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
if [ $# = 0 ]; then
  set -- cargo test -p overheid-records --test store postgres
fi
"$@"
