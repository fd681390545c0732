# Sourced by run.sh and startup-order.sh (from the repository root): builds regelrecht-cli alone,
# as `cargo install --locked` does, with the linker's map in $map.
#
# Alone: built together with other packages, cargo unifies features across them and the crates'
# symbol names change, so that the linker finds none of startup.order's names (see
# regelrecht-cli/build.rs). A map left by an earlier build would describe another binary, so it
# goes first; an up-to-date build does not link again and so writes none, and then the build
# script is made to rerun (startup.order newer) and the program is linked again. Where the
# linker is not rust-lld there is never a map, and $map stays absent.
map=$PWD/target/release/regelrecht-cli.map
rm -f "$map"
REGELRECHT_LINK_MAP=$map cargo build --release --quiet -p regelrecht-cli
if [ ! -s "$map" ]; then
  touch regelrecht-cli/startup.order
  REGELRECHT_LINK_MAP=$map cargo build --release --quiet -p regelrecht-cli
fi
