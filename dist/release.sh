#!/usr/bin/env bash
# One command makes a release: every program of the family, static for x86-64 and arm64 Linux,
# as archives, Debian packages and an OCI image of the MCP server, with checksums.
#
#   dist/release.sh [--profile NAME] [--target TARGET]...
#
# Writes into <target dir>/dist (and prints that directory):
#   overheid-cli-<version>-<target>.tar.gz   bin/ (kvk-cli, koop-cli, rvo-cli, regelrecht-cli,
#                                            overheid-mcp, profile-check), share/man/man1,
#                                            share/{bash-completion,zsh,fish} completions,
#                                            README.md, CHANGELOG.md, LICENSE
#   overheid-cli_<version>_<arch>.deb         the same, in /usr/bin, /usr/share/man/man1 and the
#                                            standard completion directories (dpkg-deb)
#   overheid-mcp-oci/                         an OCI image layout, tag <version>, one image per
#                                            architecture in one index (buildah): overheid-mcp
#                                            --http on port 8080 with the CLIs beside it, CA roots,
#                                            user 65532, no shell
#   SHA256SUMS                               over every file above (sha256sum -c SHA256SUMS)
#
# --profile: release (default, fat LTO, each program built alone: what is shipped); any other
# profile builds all programs at once (dev builds in a fraction of the time, to test the
# packaging itself, as .ci/run does) and compresses fast: gzip -1 for the archives and the .debs
# instead of zopfli and xz (xz took 1.5-2 min per dev .deb of 155 MB on 2 cores; gzip -1, 4 s).
# The release archives are gzip files made with zopfli (`pigz -11`): any gzip reads them, and
# they are 4 % smaller than gzip -9 makes them (x86-64: 24.3 MiB against 25.1, for issue 39's
# 25 MiB), for 2.5 min of compression per archive on 2 cores. --target: x86_64-unknown-linux-musl and/or
# aarch64-unknown-linux-musl (default both). The version is the workspace's, the commit HEAD's
# (with -gewijzigd when the work tree differs from it); `--version` of every program says both.
# For the release profile on an x86-64 machine, regelrecht-cli's x86-64 program is relinked with a
# start-up order made from its own training calls (dist/startup-order.sh: two more links of it,
# 5–10 minutes on 2 cores, by the load; bench/RESULTS.md). Installs what it needs from Debian when missing: help2man, dpkg-dev,
# buildah, ca-certificates, pigz (and valgrind, for the start-up order).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=release
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --profile) profile=${2:?--profile NAAM}; shift ;;
    --profile=*) profile=${1#--profile=} ;;
    --target) targets+=("${2:?--target TARGET}"); shift ;;
    --target=*) targets+=("${1#--target=}") ;;
    *) echo "dist/release.sh: onbekende optie $1" >&2; exit 2 ;;
  esac
  shift
done
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-unknown-linux-musl aarch64-unknown-linux-musl)

missing=()
command -v help2man >/dev/null || missing+=(help2man)
command -v dpkg-deb >/dev/null || missing+=(dpkg)
command -v buildah >/dev/null || missing+=(buildah)
[ -f /etc/ssl/certs/ca-certificates.crt ] || missing+=(ca-certificates)
[ "$profile" != release ] || command -v pigz >/dev/null || missing+=(pigz)
# Another profile than release keeps its debug information, which the shipped one strips: it is
# stripped here (binutils' strip, and Debian's arm64 binutils for the arm64 programs), or the
# packages take minutes to compress.
if [ "$profile" != release ]; then
  command -v strip >/dev/null || missing+=(binutils)
  command -v aarch64-linux-gnu-strip >/dev/null || missing+=(binutils-aarch64-linux-gnu)
fi
if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi

version=$(cargo metadata --no-deps --format-version 1 |
  python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "kvk-cli"))')
commit=$(git rev-parse --short=12 HEAD)
[ -z "$(git status --porcelain --untracked-files=no)" ] || commit="$commit-gewijzigd"
# Read by common's build script: `--version` names the commit a program was built from.
export OVERHEID_COMMIT=$commit
read -r -a clis <<<"$(bash dist/build.sh --list)"
programs=("${clis[@]}" overheid-mcp profile-check)
# What is shipped is compressed well; a test of the packaging, fast (dpkg reads both).
tar_compress=(--use-compress-program "pigz -11n")
deb_compress=(-Zxz)
if [ "$profile" != release ]; then
  tar_compress=(--use-compress-program "gzip -1n")
  deb_compress=(-Zgzip -z1)
fi
out="$(bash dist/build.sh --target-dir)/dist"
rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The text a program prints about itself (man pages, completions) is the same for every target:
# it is made once, by the first built program that runs here.
docs=""
make_docs() { # DIR: man pages and completions of the programs in DIR, into $work/share
  local dir=$1 share=$work/share program
  mkdir -p "$share/man/man1" "$share/bash-completion/completions" "$share/zsh/site-functions" \
    "$share/fish/vendor_completions.d"
  for program in "${clis[@]}"; do
    "$dir/$program" man >"$share/man/man1/$program.1"
    "$dir/$program" completions bash >"$share/bash-completion/completions/$program"
    "$dir/$program" completions zsh >"$share/zsh/site-functions/_$program"
    "$dir/$program" completions fish >"$share/fish/vendor_completions.d/$program.fish"
  done
  # The bridge and the checker have no man command of their own: their page is their --help,
  # laid out by help2man (Debian's tool for exactly that).
  for program in overheid-mcp profile-check; do
    help2man --no-info --no-discard-stderr --section 1 --version-string "$version" \
      --name "$("$dir/$program" --help 2>&1 | head -n 1 | sed 's/^[^:]*: *//')" \
      "$dir/$program" >"$share/man/man1/$program.1"
  done
  docs=$share
}

deb_arch() { case $1 in x86_64-*) echo amd64 ;; aarch64-*) echo arm64 ;; esac; }
oci_arch() { deb_arch "$1"; }

for target in "${targets[@]}"; do
  built=$(bash dist/build.sh --profile "$profile" --target "$target" "${programs[@]}")
  # What is shipped for x86-64: regelrecht-cli relinked with the functions its calls run placed
  # together, learnt from the program just built (dist/startup-order.sh; 10 % of a small law's CPU).
  if [ "$profile" = release ] && [ "$target" = x86_64-unknown-linux-musl ]; then
    if [ "$(uname -m)" = x86_64 ]; then
      bash dist/startup-order.sh regelrecht-cli
    else
      echo "dist/release.sh: regelrecht-cli voor x86-64 zonder startvolgorde (de training draait alleen op x86-64)" >&2
    fi
  fi
  if [ "$profile" != release ]; then
    stripped=$work/bin-$target
    mkdir -p "$stripped"
    case $target in aarch64-*) strip=aarch64-linux-gnu-strip ;; *) strip=strip ;; esac
    for program in "${programs[@]}"; do
      "$strip" --strip-all -o "$stripped/$program" "$built/$program"
    done
    built=$stripped
  fi
  if [ -z "$docs" ] && "$built/kvk-cli" --version >/dev/null 2>&1; then
    make_docs "$built"
  fi
  echo "$target $built" >>"$work/built"
done
if [ -z "$docs" ]; then
  echo "dist/release.sh: geen van de doelen draait hier; bouw ook voor $(uname -m)" >&2
  exit 1
fi

while read -r target built <&3; do
  # The archive: one directory named as the archive.
  name=overheid-cli-$version-$target
  stage=$work/$name
  mkdir -p "$stage/bin"
  for program in "${programs[@]}"; do
    install -m 0755 "$built/$program" "$stage/bin/$program"
  done
  cp -r "$docs" "$stage/share"
  cp README.md CHANGELOG.md LICENSE "$stage/"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$(git log -1 --format=%ct)" \
    "${tar_compress[@]}" -C "$work" -cf "$out/$name.tar.gz" "$name"

  # The Debian package.
  arch=$(deb_arch "$target")
  root=$work/deb-$arch
  mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/doc/overheid-cli"
  install -m 0755 "$stage"/bin/* "$root/usr/bin/"
  for page in "$docs"/man/man1/*.1; do
    gzip -9n <"$page" >"$root/usr/share/man/man1/$(basename "$page").gz"
  done
  install -m 0644 "$docs"/bash-completion/completions/* "$root/usr/share/bash-completion/completions/"
  install -m 0644 "$docs"/zsh/site-functions/* "$root/usr/share/zsh/vendor-completions/"
  install -m 0644 "$docs"/fish/vendor_completions.d/* "$root/usr/share/fish/vendor_completions.d/"
  install -m 0644 README.md "$root/usr/share/doc/overheid-cli/README.md"
  install -m 0644 LICENSE "$root/usr/share/doc/overheid-cli/copyright"
  gzip -9n <CHANGELOG.md >"$root/usr/share/doc/overheid-cli/changelog.gz"
  cat >"$root/DEBIAN/control" <<EOF
Package: overheid-cli
Version: $version
Architecture: $arch
Maintainer: overheid-cli
Section: utils
Priority: optional
Recommends: ca-certificates
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Description: command-line tools for Dutch government sources, and an MCP server over them
 kvk-cli (the KvK Handelsregister), koop-cli (legislation as in force on a date), rvo-cli
 (RVO schemes, filing a report exactly once), regelrecht-cli (machine-readable law,
 evaluated offline), overheid-mcp (one MCP server over all of them) and profile-check (any
 CLI against the overheid-cli profile). Static programs; commit $commit.
EOF
  dpkg-deb --root-owner-group "${deb_compress[@]}" --build "$root" "$out/overheid-cli_${version}_$arch.deb" >/dev/null
done 3<"$work/built"

# The OCI image of the MCP server: one image per architecture, in one index (an image layout).
# buildah writes the layers and the configuration; nothing here writes tar or JSON by hand.
export STORAGE_DRIVER=vfs BUILDAH_ISOLATION=chroot
list=overheid-mcp-release-$$
buildah manifest create "$list" >/dev/null
images=()
while read -r target built <&3; do
  arch=$(oci_arch "$target")
  image=$work/image-$arch
  mkdir -p "$image/usr/bin" "$image/etc/ssl/certs" "$image/tmp" "$image/home/overheid"
  for program in overheid-mcp "${clis[@]}"; do
    install -m 0755 "$built/$program" "$image/usr/bin/$program"
  done
  install -m 0644 /etc/ssl/certs/ca-certificates.crt "$image/etc/ssl/certs/ca-certificates.crt"
  printf 'root:x:0:0:root:/root:/sbin/nologin\noverheid:x:65532:65532:overheid:/home/overheid:/sbin/nologin\n' >"$image/etc/passwd"
  printf 'root:x:0:\noverheid:x:65532:\n' >"$image/etc/group"
  chmod 1777 "$image/tmp"
  chown 65532:65532 "$image/home/overheid"
  container=$(buildah from --arch "$arch" --os linux scratch)
  buildah copy --quiet "$container" "$image" / >/dev/null
  buildah config --arch "$arch" --os linux --user 65532:65532 --workingdir /home/overheid \
    --env HOME=/home/overheid --env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
    --port 8080/tcp --entrypoint '["/usr/bin/overheid-mcp", "--http", "0.0.0.0:8080"]' \
    --label org.opencontainers.image.title=overheid-mcp \
    --label org.opencontainers.image.version="$version" \
    --label org.opencontainers.image.revision="$commit" \
    --label org.opencontainers.image.licenses=EUPL-1.2 \
    --label org.opencontainers.image.description="overheid-mcp --http: one MCP server over the overheid CLIs; health check GET /health" \
    "$container"
  images+=("$(buildah commit --quiet --format oci --timestamp "$(git log -1 --format=%ct)" \
    --manifest "$list" "$container")")
  buildah rm "$container" >/dev/null
done 3<"$work/built"
buildah manifest push --quiet --all --format oci "$list" "oci:$out/overheid-mcp-oci:$version" >/dev/null
# Nothing of the release stays in buildah's own storage.
buildah manifest rm "$list" >/dev/null
buildah rmi "${images[@]}" >/dev/null

( cd "$out" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort |
    xargs sha256sum >SHA256SUMS )
echo "$out"
