#!/usr/bin/env bash
# Checks what dist/release.sh made, as a user installs and runs it (a step of .ci/run):
#
#   dist/check-release.sh DIST_DIR GLIBC_BIN_DIR
#
# DIST_DIR is release.sh's output; GLIBC_BIN_DIR a workspace build with fake-upstream and
# profile-check (target/debug). "Native" below is this machine's architecture (x86-64 in CI),
# "foreign" the other one (arm64). Checked, each a failure when it does not hold:
#   - sha256sum -c SHA256SUMS in DIST_DIR, every file there listed, a damaged copy reported FAILED;
#   - each archive unpacked with tar -x: every program, man page and completion there, README,
#     CHANGELOG and LICENSE; every program static (no program interpreter, no shared library) and
#     built for its archive's architecture (the ELF header; x86-64 static-pie);
#   - the native archive's programs: --version (version and commit), --help --json, the main job
#     answering as the workspace build does, and profile-check on each CLI against the fakes;
#   - the foreign archive's programs under qemu-user: --version, --help --json, the main job, and
#     profile-check on each CLI against the fakes (`profile-check --emulated -- qemu-… PROGRAM`:
#     every time limit 10x wider, the programs' default deadlines too). Each check must come out
#     as it did natively; the one exception is upstream-timeout-on-time (NET-2: stopped within
#     2.5 s of the first request), a wall-clock measure, which under an emulator measures the
#     emulator: it is reported as not applicable, by name. That the deadline ends the program
#     with exit 124 after its request reached the silent source is still checked there
#     (upstream-timeout). 24-97 s per CLI at --jobs 8 on 2 cores at load 4-12 (2026-12-06);
#   - the .debs' control fields; the native .deb installed with dpkg into a scratch root (a dpkg
#     database of its own: the machine's packages are not touched, and a clean state is certain),
#     its programs byte for byte the archive's, each one's --version as installed, man -w kvk-cli,
#     a completion through bash, zsh and fish completions, the main job; dpkg -r leaving nothing
#     but dpkg's own database; the foreign .deb refused with dpkg's own message;
#   - the OCI image: an index of both architectures; the native image unpacked (skopeo, umoci), no
#     shell, CA roots, its programs the archive's, the commit its label names the programs', its
#     entrypoint run as its user in its root file system (chroot) and a network namespace of its
#     own, GET /health answering with the sources and tools.
set -euo pipefail
dist=$(cd "${1:?DIST_DIR}" && pwd)
T=$(cd "${2:?GLIBC_BIN_DIR}" && pwd)
cd "$(dirname "$0")/.."
case $(uname -m) in
  x86_64) native=x86_64 foreign=aarch64 ;;
  aarch64) native=aarch64 foreign=x86_64 ;;
  *) echo "dist/check-release.sh: no release for $(uname -m)" >&2; exit 1 ;;
esac
debian_arch() { case $1 in x86_64) echo amd64 ;; aarch64) echo arm64 ;; esac; }
elf_machine() { case $1 in x86_64) echo 'Advanced Micro Devices X86-64' ;; aarch64) echo AArch64 ;; esac; }
qemu=qemu-$foreign-static
missing=()
command -v "$qemu" >/dev/null || missing+=(qemu-user-static)
command -v umoci >/dev/null || missing+=(umoci)
command -v skopeo >/dev/null || missing+=(skopeo)
command -v man >/dev/null || missing+=(man-db)
command -v curl >/dev/null || missing+=(curl)
command -v ip >/dev/null || missing+=(iproute2)
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
listed=$(sed 's/^[0-9a-f]*  //' "$dist/SHA256SUMS" | LC_ALL=C sort)
present=$(cd "$dist" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort)
[ "$listed" = "$present" ] || fail "SHA256SUMS does not list every file: $(diff <(echo "$listed") <(echo "$present"))"
archive=$(cd "$dist" && ls overheid-cli-*-x86_64-unknown-linux-musl.tar.gz)
version=${archive#overheid-cli-}
version=${version%-x86_64-unknown-linux-musl.tar.gz}
mkdir "$work/damaged"
cp "$dist/SHA256SUMS" "$dist/$archive" "$work/damaged/"
printf 'x' >>"$work/damaged/$archive"
if ( cd "$work/damaged" && sha256sum -c --ignore-missing SHA256SUMS ) >"$work/damaged.out" 2>&1; then
  fail "a damaged archive passed sha256sum -c"
fi
grep -q "^$archive: FAILED$" "$work/damaged.out" || fail "sha256sum -c did not name the damaged archive: $(cat "$work/damaged.out")"
rm -rf "$work/damaged"
echo "$(wc -l <"$dist/SHA256SUMS") files match SHA256SUMS; a damaged archive is reported FAILED"

"$T/fake-upstream" >"$work/fake.env" &
fake=$!
for _ in $(seq 100); do grep -q 'KOOP_REPOSITORY_URL=' "$work/fake.env" 2>/dev/null && break; sleep 0.1; done
grep -q 'KOOP_REPOSITORY_URL=' "$work/fake.env" || fail "fake-upstream did not start"
read -r -a clis <<<"$(bash dist/build.sh --list)"
programs=("${clis[@]}" overheid-mcp profile-check)
main_job=(check energiebesparing 68750110 --elektriciteit-kwh 62000 --gas-m3 31000)
expected=$(REGELRECHT_AUDIT_LOG="$work/glibc.jsonl" "$T/regelrecht-cli" "${main_job[@]}")
[ -n "$expected" ] || fail "the workspace build gave no answer to the main job"

built_from=""
runs_as_shipped() { # WHERE DIR [RUNNER...]: --version, --help --json and the main job of DIR's programs
  local where=$1 dir=$2 program answer line
  shift 2
  for program in "${programs[@]}"; do
    line=$("$@" "$dir/$program" --version) || fail "$where: $program --version failed"
    grep -qx "$program $version (commit [0-9a-f]\{12\}\(-gewijzigd\)\?)" <<<"$line" \
      || fail "$where: $program --version: $line"
    # Every program of every artefact names the same commit.
    [ -n "$built_from" ] || built_from=${line#"$program $version "}
    [ "${line#"$program $version "}" = "$built_from" ] || fail "$where: $program is of $line, not $built_from"
  done
  for program in "${clis[@]}"; do
    "$@" "$dir/$program" --help --json | python3 -c 'import json, sys; assert json.load(sys.stdin)["tools"]' \
      || fail "$where: $program --help --json"
  done
  answer=$(cd "$work" && REGELRECHT_AUDIT_LOG="$work/answer.jsonl" "$@" "$dir/regelrecht-cli" "${main_job[@]}")
  [ "$answer" = "$expected" ] || fail "$where: the main job answers differently"
}

# Checks that measure wall-clock time, and so do not apply to a program under an emulator: each
# must be reported so (SKIP with `"not_applicable": true`); every other check must
# come out under the emulator as it did natively.
not_under_emulation=(upstream-timeout-on-time)
mkdir "$work/pc-cwd"
profile_check() { # ARCH DIR [EMULATOR]: profile-check on each CLI in DIR (through EMULATOR), against the fakes
  local arch=$1 dir=$2 tool discovery line failed=0 envs options=() runner=()
  shift 2
  if [ $# -gt 0 ]; then runner=("$@"); options=(--emulated); fi
  for tool in "${clis[@]}"; do
    discovery=$("${runner[@]}" "$dir/$tool" --help --json)
    envs=()
    while IFS= read -r line; do
      case "$discovery" in *"\"${line%%=*}\""*) envs+=(--env "$line") ;; esac
    done < <(sed -n 's/^export \([A-Z_]*_\(BASE\|URL\)=\)/\1/p' "$work/fake.env")
    # From an empty directory, natively and emulated alike: an example's `.` (regelrecht-cli wet
    # valideer .) reads no law there, not 2000 files of the repository.
    ( cd "$work/pc-cwd" && "$T/profile-check" --output json "${options[@]}" "${envs[@]}" -- "${runner[@]}" "$dir/$tool" ) \
      >"$work/pc-$arch-$tool.json" 2>"$work/pc.err" || true
    # The native report of the same CLI is the measure of the emulated one.
    python3 - "$tool" "$work/pc-$arch-$tool.json" "$work/pc-$native-$tool.json" "${not_under_emulation[*]}" \
      <<'PY' || { cat "$work/pc.err"; failed=1; }
import json, sys
tool, path, native_path, exempt = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split()
try:
    report = json.load(open(path))
except ValueError:
    print(f"profile-check {tool}: no report"); sys.exit(1)
s = report["summary"]
how = " under an emulator" if report["emulated"] else ""
print(f"profile-check {tool}{how}: {s['pass']} PASS, {s['fail']} FAIL ({s['must_failed']} MUST), "
      f"{s['skip']} SKIP ({s['not_applicable']} not applicable) in {report['duration_ms'] / 1000:.0f} s")
bad = False
for check in report["checks"]:
    if check["result"] == "FAIL":
        bad = True
        print(f"  FAIL {check['id']} ({','.join(check['rules'])}): {check['title']}")
        for item in check["evidence"][:3]:
            print(f"    $ {item['command']}\n      {item['status']}: {item['problem']}")
            for out in item["output"].splitlines()[:3]:
                print(f"      {out}")
if report["emulated"]:
    natively = {c["id"]: c for c in json.load(open(native_path))["checks"]}
    for check in report["checks"]:
        was = natively.get(check["id"], {}).get("result")
        if check["id"] in exempt and was == "SKIP":
            # Nothing to judge natively (no source to fall silent): skipped alike, not "not
            # applicable".
            if check["result"] != "SKIP" or check.get("not_applicable"):
                bad = True
                print(f"  {check['id']} is {check['result']} under the emulator, SKIP natively")
        elif check["id"] in exempt:
            if check["result"] != "SKIP" or check.get("not_applicable") is not True:
                bad = True
                print(f"  {check['id']} is {check['result']} under the emulator: not reported as not applicable")
            else:
                print(f"  not applicable under the emulator: {check['id']} ({','.join(check['rules'])}), "
                      f"natively {was}: {check['reason']}")
        elif check.get("not_applicable"):
            bad = True
            print(f"  {check['id']} is not applicable under the emulator, {was} natively: not an exempt check")
        elif check["result"] != was:
            bad = True
            print(f"  {check['id']} is {check['result']} under the emulator, {was} natively")
    missing = sorted(set(natively) - {c["id"] for c in report["checks"]})
    if missing:
        bad = True
        print(f"  not run under the emulator: {', '.join(missing)}")
sys.exit(1 if bad or s["must_failed"] else 0)
PY
  done
  [ "$failed" = 0 ] || fail "profile-check on the $arch programs: a MUST failed, or a check came out otherwise than natively"
}

for arch in "$native" "$foreign"; do
  name=overheid-cli-$version-$arch-unknown-linux-musl
  echo "-- $name.tar.gz"
  [ -f "$dist/$name.tar.gz" ] || fail "no $name.tar.gz"
  tar -xzf "$dist/$name.tar.gz" -C "$work"
  root=$work/$name
  for file in README.md CHANGELOG.md LICENSE; do [ -s "$root/$file" ] || fail "$name: no $file"; done
  for program in "${programs[@]}"; do
    [ -x "$root/bin/$program" ] || fail "$name: no bin/$program"
    [ -s "$root/share/man/man1/$program.1" ] || fail "$name: no man page of $program"
    # Static: no program interpreter and no shared library. The x86-64 programs are
    # position-independent too (static-pie, so address-space randomisation stays); Zig links the
    # arm64 ones at a fixed address.
    headers=$(readelf --file-header --program-headers --dynamic --wide "$root/bin/$program")
    grep -q "Machine: *$(elf_machine "$arch")\$" <<<"$headers" || fail "$name: $program is not built for $arch"
    grep -q 'INTERP\|(NEEDED)' <<<"$headers" && fail "$name: $program is not static"
    case $arch in
      x86_64) grep -q 'Type: *DYN' <<<"$headers" || fail "$name: $program is not static-pie" ;;
    esac
  done
  for program in "${clis[@]}"; do
    [ -s "$root/share/bash-completion/completions/$program" ] && [ -s "$root/share/zsh/site-functions/_$program" ] \
      && [ -s "$root/share/fish/vendor_completions.d/$program.fish" ] || fail "$name: completions of $program"
  done
  echo "every program there, static, for $arch; man pages, completions, README, CHANGELOG, LICENSE"
  if [ "$arch" = "$native" ]; then
    runs_as_shipped "$name" "$root/bin"
    echo "--version, --help --json and the main job as the workspace build answers it"
    profile_check "$arch" "$root/bin"
  else
    runs_as_shipped "$name" "$root/bin" "$qemu"
    echo "under $qemu: --version, --help --json and the main job as the workspace build answers it"
    profile_check "$arch" "$root/bin" "$qemu"
  fi
done
shipped=$work/overheid-cli-$version-$native-unknown-linux-musl/bin

echo "-- the Debian packages"
native_deb=$dist/overheid-cli_${version}_$(debian_arch "$native").deb
foreign_deb=$dist/overheid-cli_${version}_$(debian_arch "$foreign").deb
for deb in "$native_deb" "$foreign_deb"; do
  [ -f "$deb" ] || fail "no $(basename "$deb")"
  fields=$(dpkg-deb --field "$deb" Package Version Architecture)
  arch=${deb##*_}
  [ "$fields" = "$(printf 'Package: overheid-cli\nVersion: %s\nArchitecture: %s' "$version" "${arch%.deb}")" ] \
    || fail "$(basename "$deb"): $fields"
done
# A root of its own with an empty dpkg database: what dpkg -i does on a machine without the
# package, without touching this machine's.
scratch=$work/scratch-root
mkdir -p "$scratch/var/lib/dpkg/info" "$scratch/var/lib/dpkg/updates"
: >"$scratch/var/lib/dpkg/status"
in_root() { dpkg --root="$scratch" "$@"; }
in_root -i "$native_deb" >/dev/null
for program in "${programs[@]}"; do
  cmp -s "$scratch/usr/bin/$program" "$shipped/$program" || fail "the .deb's $program is not the archive's"
done
runs_as_shipped "$(basename "$native_deb") installed" "$scratch/usr/bin"
man -M "$scratch/usr/share/man" -w kvk-cli | grep -qx "$scratch/usr/share/man/man1/kvk-cli.1.gz" \
  || fail "man -w kvk-cli: $(man -M "$scratch/usr/share/man" -w kvk-cli 2>&1)"
MANWIDTH=80 man -M "$scratch/usr/share/man" -P cat kvk-cli 2>/dev/null | grep -q 'kvk-cli' \
  || fail "man kvk-cli shows nothing"
completion=$(bash -c '. "$0/usr/share/bash-completion/completions/kvk-cli"
  fn=$(complete -p kvk-cli | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
  COMP_WORDS=(kvk-cli basis); COMP_CWORD=1; COMP_LINE="kvk-cli basis"; COMP_POINT=${#COMP_LINE}
  "$fn" kvk-cli basis kvk-cli; printf "%s\n" "${COMPREPLY[@]}"' "$scratch")
grep -qx basisprofiel <<<"$completion" || fail "bash completion of 'kvk-cli basis': $completion"
[ -s "$scratch/usr/share/zsh/vendor-completions/_kvk-cli" ] && [ -s "$scratch/usr/share/fish/vendor_completions.d/kvk-cli.fish" ] \
  || fail "zsh/fish completions not installed"
in_root -r overheid-cli >/dev/null
left=$(cd "$scratch" && find . -mindepth 1 ! -path ./var ! -path ./var/lib ! -path './var/lib/dpkg*')
[ -z "$left" ] || fail "dpkg -r left: $left"
in_root -s overheid-cli >/dev/null 2>&1 && fail "overheid-cli still installed after dpkg -r"
if in_root -i "$foreign_deb" >"$work/wrong.out" 2>&1; then
  fail "dpkg installed the $(debian_arch "$foreign") package on $(debian_arch "$native")"
fi
grep -q "package architecture ($(debian_arch "$foreign")) does not match system ($(debian_arch "$native"))" "$work/wrong.out" \
  || fail "dpkg's refusal of the $(debian_arch "$foreign") package: $(cat "$work/wrong.out")"
echo "installed in a scratch root: the archive's programs, --version, man page, bash completion, the main job; removed without a trace; $(debian_arch "$foreign") refused"

echo "-- the OCI image"
revision=$(skopeo inspect --override-arch "$(debian_arch "$native")" --format '{{index .Labels "org.opencontainers.image.revision"}}' \
  "oci:$dist/overheid-mcp-oci:$version")
[ "(commit $revision)" = "$built_from" ] || fail "the image's revision label $revision, not $built_from"
# The tag names an index with one image per architecture.
skopeo inspect --raw "oci:$dist/overheid-mcp-oci:$version" | python3 -c '
import json, sys
platforms = sorted(m["platform"]["architecture"] for m in json.load(sys.stdin)["manifests"])
assert platforms == sorted(sys.argv[1:]), platforms' "$(debian_arch "$native")" "$(debian_arch "$foreign")" \
  || fail "the image's index is not one image for each of amd64 and arm64"
skopeo copy --quiet --override-arch "$(debian_arch "$native")" "oci:$dist/overheid-mcp-oci:$version" "oci:$work/image:$version"
umoci unpack --rootless --image "$work/image:$version" "$work/bundle" >/dev/null
rootfs=$work/bundle/rootfs
[ ! -e "$rootfs/bin/sh" ] || fail "the image has a shell"
[ -s "$rootfs/etc/ssl/certs/ca-certificates.crt" ] || fail "the image has no CA roots"
for program in overheid-mcp "${clis[@]}"; do
  cmp -s "$rootfs/usr/bin/$program" "$shipped/$program" || fail "the image's $program is not the archive's"
done
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
# An OCI runtime gives every container the default devices (runtime-spec: /dev/null, zero, full,
# random, urandom); a chroot does not, and the bridge starts its CLIs with stdin from /dev/null.
# Bound here as a runtime would, in a mount namespace of the entrypoint's own, gone with it; and,
# as a runtime would, a network namespace of its own, so the image's port 8080 is free whatever
# else runs on this machine (curl asks /health from inside it).
mkdir -p "$rootfs/dev"
for device in null zero full random urandom; do touch "$rootfs/dev/$device"; done
unshare --mount --net --propagation private sh -c \
  'ip link set lo up && for d in null zero full random urandom; do mount --bind "/dev/$d" "$0/dev/$d"; done && exec "$@"' \
  "$rootfs" env -i "${image_env[@]}" chroot --userspec="$user" "$rootfs" "${entry[@]}" \
  --auth-jwks /etc/overheid/jwks.json --auth-issuer https://login.example.nl \
  --auth-audience https://mcp.example.nl/mcp >"$work/mcp.out" 2>&1 &
mcp=$!
health=""
for _ in $(seq 100); do
  health=$(nsenter --target "$mcp" --net curl -sf http://127.0.0.1:8080/health 2>/dev/null) && break
  kill -0 "$mcp" 2>/dev/null || { cat "$work/mcp.out"; fail "the image's entrypoint stopped"; }
  sleep 0.1
done
[ -n "$health" ] || { cat "$work/mcp.out"; fail "GET /health did not answer"; }
python3 -c 'import json, sys; h = json.loads(sys.argv[1]); assert h["tools"] and h["sources"], h' "$health" \
  || fail "/health names no tools: $health"
echo "GET /health: $health"
