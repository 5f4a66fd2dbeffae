#!/usr/bin/env bash
# Builds the Debian package of gestured: gestured_VERSION_amd64.deb in OUTDIR (default
# .build/debian), for Debian 12 (bookworm) and later, with no Swift toolchain needed on the
# target.
#
#  1. The release binaries (gestured, the web bridge gestured-web and the MQTT sidecar
#     gestured-mqtt), each linked with the Swift runtime, libstdc++ and libgcc statically
#     (--static-swift-stdlib and GCC's libstdc++.a: their only shared libraries are libc, libm,
#     libevdev, libmtdev, zlib and, for gestured-mqtt, libmosquitto, which step 1 checks), by lld with packed relative relocations (DT_RELR, glibc 2.36+), its
#     start-up functions placed together (tools/package/startup-order.py profiles them),
#     bound at load time (-z now: a read-only GOT), and stripped. Built in its own scratch directory (.build/static) so it never invalidates the
#     ordinary debug and release builds.
#     Then what the package declares about them: the glibc they need (from their version
#     references), Static-Built-Using (GCC's libstdc++.a and libgcc.a), and a check that
#     packaging/debian/copyright names every Swift package Package.resolved pins.
#  2. The man pages, generated from each command's own help by swift-argument-parser's
#     generate-manual tool, so they cannot drift from `gestured --help`. gestured parses its
#     command line itself (Sources/CommandLineParsing) but prints the same
#     --experimental-dump-help JSON the tool reads (pinned by Tests/Golden/command-line).
#     EXIT STATUS, FILES, EXAMPLES and SEE ALSO come from packaging/man/PRODUCT.sections, and
#     gestured.json5(5) is packaging/man/gestured.json5.5.
#  3. The package, by debhelper from packaging/debian/: units in /lib/systemd/system (the web
#     bridge's, gestured-web.service, and the MQTT sidecar's, gestured-mqtt.service, installed
#     but not enabled), the udev rule in
#     /usr/lib/udev/rules.d, uinput loaded through /usr/lib/modules-load.d, sysusers in
#     /usr/lib/sysusers.d, /etc/gestured (the lobby
#     sample, reading /dev/input/touchscreen) as conffiles, the Python client in
#     /usr/share/gestured, README.Debian, the README and docs/ (uncompressed, so their links
#     work), sample configurations and recordings in /usr/share/doc/gestured, Depends from
#     dpkg-shlibdeps and the glibc above, and maintainer scripts that create the users, trigger
#     udev, enable gestured.socket, keep running units running across upgrades and reload
#     udev on removal.
#  4. lintian: no error or warning may remain; the tags overridden are explained in
#     packaging/debian/gestured.lintian-overrides.
#
# Usage: scripts/package-deb.sh [OUTDIR]. Installs its Debian packages with apt-get
# (debhelper, lintian, valgrind …), so it needs root or sudo, as CI runs. Prints the path of
# the .deb on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export PATH="$PATH:/opt/swift/usr/bin"
out=$(mkdir -p "${1:-.build/debian}" && cd "${1:-.build/debian}" && pwd)

# The executables the package carries, each built from this Swift package; a systemd unit of
# the same name in systemd/ comes along, installed but neither enabled nor started unless it
# is gestured's own (gestured-web's opens a TCP port: the operator enables it; gestured-mqtt's
# needs a broker and its credentials first: the integrator enables it, docs/fleet.md).
products=(gestured gestured-web gestured-mqtt)

scripts/setup-deps.sh
need=()
for package in debhelper dpkg-dev lintian valgrind python3; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || need+=("$package")
done
if ((${#need[@]})); then
    echo "package-deb: installing ${need[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

# --- 1. the static binaries ----------------------------------------------------------------
scratch=.build/static
# -gdwarf-4: the C targets (swift-system's shims) would get clang's DWARF 5, which Debian 12's
# valgrind cannot read, and the start-up profile below runs under valgrind.
# libstdc++ and libgcc linked in too: the Swift runtime's static link line asks for -lstdc++,
# which the linker script below (found first, on -L) turns into GCC's libstdc++.a, so only the
# few functions the runtime uses come along instead of the whole shared library's pages
# (1.1 MB less resident at READY; GCC's Runtime Library Exception allows it).
libstdcxx=$(clang -print-file-name=libstdc++.a 2>/dev/null || true)
[ -f "$libstdcxx" ] || { echo "package-deb: no libstdc++.a (Debian: libstdc++-12-dev), needed to link libstdc++ in" >&2; exit 1; }
mkdir -p "$work/static-cxx"
echo "INPUT($libstdcxx)" > "$work/static-cxx/libstdc++.so"
# lld, which the options below are for, links every program of this package (Package.swift);
# -use-ld=lld is given here too for swift-argument-parser's generate-manual (step 2), a product
# of a dependency, whose targets Package.swift cannot set (gold rejects pack-relative-relocs).
build=(swift build -c release --scratch-path "$scratch" --static-swift-stdlib -Xcc -gdwarf-4
       -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker now
       -Xswiftc -Xclang-linker -Xswiftc -static-libgcc -Xlinker -L"$work/static-cxx")
bin=$("${build[@]}" --show-bin-path)
for product in "${products[@]}"; do
    # With symbols first: the profile needs the functions' names.
    "${build[@]}" --product "$product" 2>&1 | grep -v "^\[" || true
    [ -x "$bin/$product" ] || { echo "package-deb: $product did not build" >&2; exit 1; }
done
python3 tools/package/startup-order.py "$bin/gestured" config/lobby.json5 > "$work/startup-order.txt"
for product in "${products[@]}"; do
    rm -f "$bin/$product"
    "${build[@]}" --product "$product" -Xlinker --symbol-ordering-file="$work/startup-order.txt" \
        -Xlinker --no-warn-symbol-ordering -Xlinker -s 2>&1 | grep -v "^\[" || true
    [ -x "$bin/$product" ] || { echo "package-deb: $product did not link" >&2; exit 1; }
    # Only the C runtime, the two input libraries and zlib (gestured-web gzips the page module;
    # zlib1g is essential on Debian): a Swift runtime, ICU or libcurl here would need a
    # toolchain (or more packages) on the kiosk, and libstdc++ is linked in. gestured-mqtt
    # also links libmosquitto (libmosquitto1, in Depends through dpkg-shlibdeps) and, through
    # it, what libmosquitto itself needs (OpenSSL: libmosquitto1's own Depends), read from
    # ldd of the library rather than listed here.
    allowed='linux-vdso|/lib64/ld-linux-x86-64|libc|libm|libevdev|libmtdev|libz'
    if [ "$product" = gestured-mqtt ]; then
        mosquitto=$(ldd "$bin/$product" | awk '$1 ~ /^libmosquitto\.so/ { print $3 }')
        [ -n "$mosquitto" ] || { echo "package-deb: gestured-mqtt does not link libmosquitto" >&2; exit 1; }
        allowed="$allowed|libmosquitto|$(ldd "$mosquitto" | awk '$1 ~ /\.so/ { sub(/\.so.*/, "", $1); print $1 }' | paste -sd'|')"
    fi
    unexpected=$(ldd "$bin/$product" | awk '$1 ~ /\.so/ { sub(/\.so.*/, "", $1); print $1 }' \
        | grep -vxE "$allowed" || true)
    [ -z "$unexpected" ] || { echo "package-deb: $product needs unexpected libraries: $unexpected" >&2; exit 1; }
    echo "package-deb: $product $(stat -c %s "$bin/$product") bytes; needs $(ldd "$bin/$product" | awk '$1 ~ /\.so/ { print $1 }' | tr '\n' ' ')"
done

# The glibc the binaries need, from their version references: the highest GLIBC_2.x, and 2.36
# for GLIBC_ABI_DT_RELR (the packed relative relocations above; glibc 2.36 NEWS), which
# dpkg-shlibdeps' symbols files do not know (it said 2.35, and a Debian 11 glibc 2.31 would
# refuse the binaries at load).
glibc=$(for product in "${products[@]}"; do objdump -p "$bin/$product"; done | python3 -c '
import re, sys
text = sys.stdin.read()
versions = [tuple(map(int, v.split("."))) for v in re.findall(r"\bGLIBC_(\d+\.\d+(?:\.\d+)?)\b", text)]
if "GLIBC_ABI_DT_RELR" in text:
    versions.append((2, 36))
print(".".join(map(str, max(versions))))')
echo "package-deb: the binaries need glibc $glibc"
# Static-Built-Using: the Debian source packages whose code is linked in, libstdc++.a and
# libgcc.a (GCC's, above). The Swift runtime and the Swift packages are no Debian package:
# debian/copyright declares them, and every package the build resolved must be named there.
static_built_using=$(for archive in "$libstdcxx" "$(clang -print-libgcc-file-name)"; do
    dpkg-query -W -f='${source:Package} (= ${source:Version})\n' "$(dpkg -S "$(readlink -f "$archive")" | cut -d: -f1)"
done | sort -u | paste -sd, | sed 's/,/, /g')
echo "package-deb: Static-Built-Using: $static_built_using"
for dependency in $(python3 -c 'import json; print(" ".join(p["identity"] for p in json.load(open("Package.resolved"))["pins"]))'); do
    grep -q "$dependency" packaging/debian/copyright \
        || { echo "package-deb: $dependency is linked in but packaging/debian/copyright does not declare it" >&2; exit 1; }
done

version=$("$bin/gestured" --version)
debian_version=$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)
[ "${debian_version%-*}" = "$version" ] || {
    echo "package-deb: packaging/debian/changelog is at $debian_version but gestured --version says $version: add a changelog entry (dch -v $version-1)" >&2
    exit 1; }

# --- 2. the tree debhelper packs -----------------------------------------------------------
src=$work/gestured-$version
stage=$src/stage
mkdir -p "$stage/layouts" "$stage/examples" "$stage/docs"
cp -r packaging/debian "$src/debian"
cp packaging/man/gestured.json5.5 "$stage/"
"${build[@]}" --product generate-manual 2>&1 | grep -v "^\[" || true
for product in "${products[@]}"; do
    cp "$bin/$product" "$stage/"
    [ "$product" = gestured ] || echo "stage/$product usr/bin" >> "$src/debian/gestured.install"
    # The man page of every product, from its own --experimental-dump-help (argument-parser's
    # ToolInfo JSON, which gestured's own parser prints too).
    "$bin/generate-manual" "$bin/$product" --output-directory "$stage" \
        --date "$(date -u -d "@$(dpkg-parsechangelog -l packaging/debian/changelog -S Timestamp)" +%Y-%m-%d)" \
        --section 1 --authors "gestured maintainers" >/dev/null
    [ -s "$stage/$product.1" ] || { echo "package-deb: no man page for $product" >&2; exit 1; }
    # A blank line in a command's discussion comes through as is; mdoc wants .Pp there.
    sed -i 's/^$/.Pp/' "$stage/$product.1"
    # A command with no subcommands of its own (gestured-web, gestured-mqtt): generate-manual
    # still lists argument-parser's implicit "help" subcommand (and "subcommand" in the
    # synopsis) and leaves the options in DESCRIPTION; they go under OPTIONS, without it.
    if ! grep '^\.It Em ' "$stage/$product.1" | grep -qvx '\.It Em help'; then
        awk '/^\.Sh / { section = $0 }
             section == ".Sh SYNOPSIS" && /^\.Ar subcommand$/ { next }
             section == ".Sh DESCRIPTION" && /^\.Bl -tag/ && !options { print ".Sh OPTIONS"; options = 1 }
             /^\.It Em help$/ { skipping = 1; next }
             skipping { if ($0 == ".El") skipping = 0; next }
             { print }' "$stage/$product.1" > "$work/$product.1" && mv "$work/$product.1" "$stage/$product.1"
        grep -q '^\.Sh OPTIONS$' "$stage/$product.1" || { echo "package-deb: $product.1 has no options to list" >&2; exit 1; }
    fi
    # The sections a help text has no place for (EXIT STATUS, FILES, EXAMPLES, SEE ALSO),
    # written by hand in packaging/man/PRODUCT.sections, go before AUTHORS, in place of
    # generate-manual's EXIT STATUS (".Ex -std": 0 or more than 0, without 64 or 78).
    if [ -f "packaging/man/$product.sections" ]; then
        grep -q '^\.Sh AUTHORS' "$stage/$product.1" \
            || { echo "package-deb: $product.1 has no AUTHORS section to put packaging/man/$product.sections before" >&2; exit 1; }
        awk -v extra="packaging/man/$product.sections" \
            '/^\.Sh "EXIT STATUS"$/ || /^\.Ex -std$/ { next }
             /^\.Sh AUTHORS/ { while ((getline line < extra) > 0) print line } { print }' \
            "$stage/$product.1" > "$work/$product.1" && mv "$work/$product.1" "$stage/$product.1"
    fi
    [ "$product" = gestured ] || echo "stage/$product.1" >> "$src/debian/gestured.manpages"
done
# Units: debian/gestured.service and .socket are gestured's own (see debian/rules); any other
# product's unit is installed under its name, not enabled.
cp systemd/gestured.service systemd/gestured.socket "$src/debian/"
extra_units=()
for product in "${products[@]}"; do
    [ "$product" != gestured ] && [ -f "systemd/$product.service" ] || continue
    cp "systemd/$product.service" "$src/debian/gestured.$product.service"
    extra_units+=("$product")
done
cp systemd/gestured.sysusers.conf "$src/debian/gestured.sysusers"
cp systemd/70-gestured-touchscreen.rules "$stage/"
mkdir -p "$stage/modules-load.d"
cp systemd/gestured-modules-load.conf "$stage/modules-load.d/gestured.conf"
# /etc/gestured: the lobby sample, reading the panel through the udev rule's stable name.
sed 's|^  device: "auto",$|  device: "/dev/input/touchscreen",|' config/lobby.json5 > "$stage/gestured.json5"
grep -q '^  device: "/dev/input/touchscreen",$' "$stage/gestured.json5" \
    || { echo "package-deb: config/lobby.json5 has no 'device: \"auto\",' line to point at /dev/input/touchscreen" >&2; exit 1; }
cp config/layouts/lobby.json5 "$stage/layouts/"
"$bin/gestured" check-config "$stage/gestured.json5" >/dev/null
# Documentation and examples (Debian Policy 12.3: /usr/share/doc/gestured): the README and
# every page of docs/ it links to, uncompressed so the links work (debian/rules); every
# sample configuration with its layouts, and the project's own recordings to replay with them.
cp README.md "$stage/"
cp docs/*.md docs/*.png "$stage/docs/"
cp -r examples/web examples/mqtt "$stage/examples/"
mkdir -p "$stage/examples/recordings"
cp config/recordings/README.md config/recordings/*.evemu "$stage/examples/recordings/"
# The Python client is a program, not documentation: /usr/share/gestured (run it with
# python3; no #! line, since python3 is only suggested).
mkdir -p "$stage/share"
sed '1{/^#!/d}' examples/python/gestured_client.py > "$stage/share/gestured_client.py"
# The bridge's drop-in for pages that change the layout (README, "Web kiosks").
mkdir -p "$stage/examples/systemd"
cp systemd/gestured-web-control.conf "$stage/examples/systemd/"
mkdir -p "$stage/examples/config/layouts"
cp config/lobby.json5 config/gallery.json5 config/map.json5 "$stage/examples/config/"
cp config/layouts/*.json5 "$stage/examples/config/layouts/"
# The page library as a page copies it (docs/web.md): /usr/share/gestured/web.
mkdir -p "$stage/web/dist"
cp web/package.json web/gestured.js web/gestured.d.ts web/README.md "$stage/web/"
cp web/dist/gestured.min.js web/dist/gestured.min.js.map "$stage/web/dist/"

# --- 3. the package --------------------------------------------------------------------------
(cd "$src" && EXTRA_UNITS="${extra_units[*]}" GLIBC_DEPENDS="libc6 (>= $glibc)" STATIC_BUILT_USING="$static_built_using" \
    debian/rules binary) > "$work/dh.log" 2>&1 \
    || { cat "$work/dh.log" >&2; echo "package-deb: debhelper failed" >&2; exit 1; }
deb=gestured_${debian_version}_amd64.deb
mv "$work/$deb" "$out/$deb"
dpkg-deb --info "$out/$deb" | sed -n '/Package:/,$p' | grep -E '^ (Package|Version|Depends|Static-Built-Using|Installed-Size):'
dpkg-deb -f "$out/$deb" Depends | grep -q "libc6 (>= $glibc)" \
    || { echo "package-deb: Depends does not ask for glibc $glibc" >&2; exit 1; }
# libmosquitto1 comes from dpkg-shlibdeps (gestured-mqtt's DT_NEEDED), like libevdev2.
dpkg-deb -f "$out/$deb" Depends | grep -q "libmosquitto1" \
    || { echo "package-deb: Depends does not name libmosquitto1 (gestured-mqtt links it)" >&2; exit 1; }

# --- 4. lintian ----------------------------------------------------------------------------
echo "== lintian $(lintian --version | awk '{print $2}')"
lintian --info --display-info --fail-on error,warning "$out/$deb"
echo "package-deb: built in $(( $(date +%s) - start )) s"
echo "$out/$deb"
