#!/usr/bin/env bash
# Checks what dist/release.sh made, as a user would use it:
#
#   dist/check-release.sh DIST_DIR GLIBC_BIN_DIR
#
# DIST_DIR is release.sh's output; GLIBC_BIN_DIR a workspace build with fake-upstream and
# profile-check (target/debug). Checked, each a failure when it does not hold:
#   - sha256sum -c SHA256SUMS in DIST_DIR, and a damaged copy reported as FAILED;
#   - each archive unpacked: every program there, static (x86-64: static-pie), profile-check on each CLI against
#     the fakes, the main job answering as the workspace build does; the aarch64 programs under
#     qemu-user (Debian qemu-user-static): --version, --help --json, the main job, profile-check;
#   - the amd64 .deb: dpkg -i, man -w kvk-cli, a completion through bash, the main job, and
#     dpkg -r leaving none of its files behind; the arm64 .deb refused by dpkg on amd64;
#   - the OCI image: unpacked (skopeo, umoci), its entrypoint run as its user in its root file
#     system (chroot: no shell there) against the fakes, GET /health answering with the tools.
set -euo pipefail
dist=$(cd "${1:?DIST_DIR}" && pwd)
T=$(cd "${2:?GLIBC_BIN_DIR}" && pwd)
cd "$(dirname "$0")/.."
missing=()
command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
command -v umoci >/dev/null || missing+=(umoci)
command -v skopeo >/dev/null || missing+=(skopeo)
command -v man >/dev/null || missing+=(man-db)
command -v curl >/dev/null || missing+=(curl)
command -v openssl >/dev/null || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
fail() { echo "dist/check-release.sh: $*" >&2; exit 1; }
work=$(mktemp -d)
fake=""
mcp=""
cleanup() {
  [ -z "$mcp" ] || kill "$mcp" 2>/dev/null || true
  [ -z "$fake" ] || kill "$fake" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "-- checksums"
( cd "$dist" && sha256sum -c --quiet SHA256SUMS )
cp -r "$dist" "$work/damaged"
archive=$(cd "$dist" && ls overheid-cli-*-x86_64-unknown-linux-musl.tar.gz)
printf 'x' >>"$work/damaged/$archive"
if ( cd "$work/damaged" && sha256sum -c --quiet SHA256SUMS ) >"$work/damaged.out" 2>&1; then
  fail "a damaged archive passed sha256sum -c"
fi
grep -q "^$archive: FAILED$" "$work/damaged.out" || fail "sha256sum -c did not name the damaged archive: $(cat "$work/damaged.out")"
rm -rf "$work/damaged"

"$T/fake-upstream" >"$work/fake.env" &
fake=$!
for _ in $(seq 100); do grep -q 'KOOP_REPOSITORY_URL=' "$work/fake.env" 2>/dev/null && break; sleep 0.1; done
read -r -a clis <<<"$(bash dist/build.sh --list)"
programs=("${clis[@]}" overheid-mcp profile-check)
main_job=(check energiebesparing 68750110 --elektriciteit-kwh 62000 --gas-m3 31000)
expected=$(REGELRECHT_AUDIT_LOG="$work/glibc.jsonl" "$T/regelrecht-cli" "${main_job[@]}")
[ -n "$expected" ] || fail "the workspace build gave no answer to the main job"

profile_check() { # DIR [RUNNER...]: profile-check on each CLI in DIR, run through RUNNER (qemu)
  local dir=$1 tool discovery line failed=0 envs jobs=()
  shift
  # Emulated, a call costs far more processor (a dev build's kvk-cli against a 500: 0.9 s under
  # qemu, 13 ms native): profile-check's 8 calls at once ran into their own --timeout 5 on 2 busy
  # cores (upstream-5xx and the like, exit 124); 2 at once pass those.
  [ $# -eq 0 ] || jobs=(--jobs 2)
  for tool in "${clis[@]}"; do
    discovery=$("$@" "$dir/$tool" --help --json)
    envs=()
    while IFS= read -r line; do
      case "$discovery" in *"\"${line%%=*}\""*) envs+=(--env "$line") ;; esac
    done < <(sed -n 's/^export \([A-Z_]*_\(BASE\|URL\)=\)/\1/p' "$work/fake.env")
    "$T/profile-check" --output table "${jobs[@]}" "${envs[@]}" -- "$@" "$dir/$tool" >"$work/pc.out" 2>&1 \
      || { cat "$work/pc.out"; failed=1; }
    echo "$tool: $(tail -n 1 "$work/pc.out")"
  done
  [ "$failed" = 0 ] || fail "profile-check: a MUST failed"
}

for archive in "$dist"/overheid-cli-*.tar.gz; do
  name=$(basename "$archive" .tar.gz)
  echo "-- $name"
  tar -xzf "$archive" -C "$work"
  root=$work/$name
  for file in README.md CHANGELOG.md LICENSE; do [ -s "$root/$file" ] || fail "$name: no $file"; done
  for program in "${programs[@]}"; do
    [ -x "$root/bin/$program" ] || fail "$name: no bin/$program"
    [ -s "$root/share/man/man1/$program.1" ] || fail "$name: no man page of $program"
    # Static: no program interpreter. The x86-64 programs are position-independent too
    # (static-pie, so address-space randomisation stays); Zig links the arm64 ones at a fixed
    # address.
    headers=$(readelf --file-header --program-headers --wide "$root/bin/$program")
    grep -q INTERP <<<"$headers" && fail "$name: $program is not static"
    case $name in
      *x86_64*) grep -q 'Type: *DYN' <<<"$headers" || fail "$name: $program is not static-pie" ;;
    esac
  done
  for program in "${clis[@]}"; do
    [ -s "$root/share/bash-completion/completions/$program" ] && [ -s "$root/share/zsh/site-functions/_$program" ] \
      && [ -s "$root/share/fish/vendor_completions.d/$program.fish" ] || fail "$name: completions of $program"
  done
  run=()
  case $name in *aarch64*) run=(qemu-aarch64-static) ;; esac
  for program in "${programs[@]}"; do
    "${run[@]}" "$root/bin/$program" --version | grep -q "^$program [0-9].* (commit [0-9a-f]" \
      || fail "$name: $program --version names no version and commit"
  done
  for program in "${clis[@]}"; do
    "${run[@]}" "$root/bin/$program" --help --json | python3 -c 'import json, sys; json.load(sys.stdin)["tools"]' \
      || fail "$name: $program --help --json"
  done
  answer=$(REGELRECHT_AUDIT_LOG="$work/$name.jsonl" "${run[@]}" "$root/bin/regelrecht-cli" "${main_job[@]}")
  [ "$answer" = "$expected" ] || fail "$name: the main job answers differently"
  profile_check "$root/bin" "${run[@]}"
done

echo "-- the Debian package"
deb=$(ls "$dist"/overheid-cli_*_amd64.deb)
dpkg -s overheid-cli >/dev/null 2>&1 && fail "overheid-cli is already installed here"
dpkg -i "$deb" >/dev/null
man -w kvk-cli | grep -q '^/usr/share/man/man1/kvk-cli.1.gz$' || fail "man -w kvk-cli: $(man -w kvk-cli 2>&1)"
completion=$(bash -c '. /usr/share/bash-completion/completions/kvk-cli
  fn=$(complete -p kvk-cli | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
  COMP_WORDS=(kvk-cli basis); COMP_CWORD=1; COMP_LINE="kvk-cli basis"; COMP_POINT=${#COMP_LINE}
  "$fn" kvk-cli basis kvk-cli; printf "%s\n" "${COMPREPLY[@]}"')
grep -qx basisprofiel <<<"$completion" || fail "bash completion of 'kvk-cli basis': $completion"
[ -f /usr/share/zsh/vendor-completions/_kvk-cli ] && [ -f /usr/share/fish/vendor_completions.d/kvk-cli.fish ] \
  || fail "zsh/fish completions not installed"
answer=$(cd "$work" && REGELRECHT_AUDIT_LOG="$work/deb.jsonl" /usr/bin/regelrecht-cli "${main_job[@]}")
[ "$answer" = "$expected" ] || fail "the installed package answers the main job differently"
files=$(dpkg -L overheid-cli | while read -r f; do [ -d "$f" ] || echo "$f"; done)
dpkg -r overheid-cli >/dev/null
left=$(for f in $files; do [ ! -e "$f" ] || echo "$f"; done)
[ -z "$left" ] || fail "dpkg -r left: $left"
[ ! -d /usr/share/doc/overheid-cli ] || fail "dpkg -r left /usr/share/doc/overheid-cli"
dpkg -s overheid-cli >/dev/null 2>&1 && fail "overheid-cli still installed after dpkg -r"
if dpkg -i "$(ls "$dist"/overheid-cli_*_arm64.deb)" >"$work/wrong.out" 2>&1; then
  dpkg -r overheid-cli >/dev/null 2>&1 || true
  fail "dpkg installed the arm64 package on amd64"
fi
grep -q 'package architecture (arm64) does not match system (amd64)' "$work/wrong.out" \
  || fail "dpkg's refusal of the arm64 package: $(cat "$work/wrong.out")"
echo "installed, man page, bash completion, main job, removed without a trace; arm64 refused"

echo "-- the OCI image"
version=$(ls "$dist"/overheid-cli-*-x86_64-unknown-linux-musl.tar.gz | sed 's/.*overheid-cli-\(.*\)-x86_64-unknown-linux-musl.tar.gz/\1/')
python3 -c 'import json, sys; i = json.load(open(sys.argv[1])); assert i["manifests"], i' "$dist/overheid-mcp-oci/index.json"
skopeo copy --quiet --override-arch amd64 "oci:$dist/overheid-mcp-oci:$version" "oci:$work/amd64:$version"
umoci unpack --rootless --image "$work/amd64:$version" "$work/bundle" >/dev/null
rootfs=$work/bundle/rootfs
[ ! -e "$rootfs/bin/sh" ] || fail "the image has a shell"
[ -s "$rootfs/etc/ssl/certs/ca-certificates.crt" ] || fail "the image has no CA roots"
# The entrypoint, user and environment the image declares (config.json of the runtime bundle).
python3 - "$work/bundle/config.json" >"$work/process" <<'PY'
import json, shlex, sys
p = json.load(open(sys.argv[1]))["process"]
print(f'{p["user"]["uid"]}:{p["user"]["gid"]}')
print(" ".join(shlex.quote(a) for a in p["args"]))
print(" ".join(shlex.quote(e) for e in p["env"]))
PY
user=$(sed -n 1p "$work/process")
eval "entry=($(sed -n 2p "$work/process"))"
eval "image_env=($(sed -n 3p "$work/process"))"
[ "$user" = 65532:65532 ] || fail "the image runs as $user, not a user of its own"
[ "${entry[*]:0:3}" = "/usr/bin/overheid-mcp --http 0.0.0.0:8080" ] || fail "entrypoint: ${entry[*]}"
# A JWKS of a key made here: the deployment's required identity provider, for the start only.
openssl genpkey -algorithm ed25519 -out "$work/key.pem" 2>/dev/null
x=$(openssl pkey -in "$work/key.pem" -pubout -outform DER | tail -c 32 | base64 | tr '+/' '-_' | tr -d '=\n')
mkdir -p "$rootfs/etc/overheid"
printf '{"keys":[{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","kid":"ci","x":"%s"}]}\n' "$x" \
  >"$rootfs/etc/overheid/jwks.json"
python3 -c 'import socket, sys; s = socket.socket(); s.bind(("0.0.0.0", 8080)); s.close()' 2>/dev/null \
  || fail "port 8080, the image's, is taken on this machine"
fake_env=()
while IFS= read -r line; do fake_env+=("$line"); done < <(sed -n 's/^export //p' "$work/fake.env")
# An OCI runtime gives every container the default devices (runtime-spec: /dev/null, zero, full,
# random, urandom); a chroot does not, and the bridge starts its CLIs with stdin from /dev/null.
# Bound here as a runtime would, in a mount namespace of the entrypoint's own, gone with it.
mkdir -p "$rootfs/dev"
for device in null zero full random urandom; do touch "$rootfs/dev/$device"; done
unshare --mount --propagation private sh -c \
  'for d in null zero full random urandom; do mount --bind "/dev/$d" "$0/dev/$d"; done; exec "$@"' \
  "$rootfs" env -i "${image_env[@]}" "${fake_env[@]}" chroot --userspec="$user" "$rootfs" "${entry[@]}" \
  --auth-jwks /etc/overheid/jwks.json --auth-issuer https://login.example.nl \
  --auth-audience https://mcp.example.nl/mcp >"$work/mcp.out" 2>&1 &
mcp=$!
health=""
for _ in $(seq 100); do
  health=$(curl -sf http://127.0.0.1:8080/health 2>/dev/null) && break
  kill -0 "$mcp" 2>/dev/null || { cat "$work/mcp.out"; fail "the image's entrypoint stopped"; }
  sleep 0.1
done
[ -n "$health" ] || { cat "$work/mcp.out"; fail "GET /health did not answer"; }
python3 -c 'import json, sys; h = json.loads(sys.argv[1]); assert h["tools"] and h["sources"], h' "$health" \
  || fail "/health names no tools: $health"
echo "GET /health: $health"
