#!/usr/bin/env bash
# The package the boot test upgrades from: the packaging of an earlier commit around the
# binaries of the package under test. Usage:
#
#   tools/boottest/previous-package.sh COMMIT VERSION DEB OUTDIR
#
# What an upgrade exercises is the OLD package's maintainer scripts and units (its prerm and
# preinst stop units the old way, its postinst left them as they are) followed by the NEW
# package's. So everything debhelper turns into maintainer scripts, units and conffiles comes
# from COMMIT: packaging/debian (control, rules, postinst, prerm, install lists), systemd/
# (the units, the udev rule, sysusers, modules-load) and the sample configuration in
# /etc/gestured, each read with `git archive COMMIT`, so a clean clone works without a
# checkout of COMMIT. The executables and their man pages come from DEB (usr/bin and
# usr/share/man of the package under test): no second Swift build. The package is labelled
# VERSION (which must sort below DEB's), since it is not the package COMMIT shipped: the
# binaries in it are this tree's. What it does not test is an old binary's own behaviour
# during an upgrade; the upgrade's units, scripts, groups and conffiles are the old ones.
#
# The staging below is step 2 of scripts/package-deb.sh as it is at COMMIT (c6769d7), less
# the build: the same files in the same places, which that commit's debian/*.install,
# .docs, .examples and .manpages name. Prints the path of the .deb on its last line. Exit
# status 125 when COMMIT is not in this clone (a shallow clone: git fetch --unshallow).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 COMMIT VERSION DEB OUTDIR" >&2; exit 2; }
commit=$1 version=$2 deb=$(realpath "$3") out=$(mkdir -p "$4" && cd "$4" && pwd)
cd "$(dirname "$0")/../.."

if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
    if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
        echo "previous-package: this clone is shallow and lacks $commit, whose packaging the upgrade starts from: git fetch --unshallow" >&2
    else
        echo "previous-package: commit $commit is not in $(pwd) (a git clone of the project is needed)" >&2
    fi
    exit 125
fi
new_version=$(dpkg-deb -f "$deb" Version)
dpkg --compare-versions "$version" lt "$new_version" \
    || { echo "previous-package: $version does not sort below $deb's version $new_version: nothing would be upgraded" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
old=$work/old
new=$work/new
mkdir -p "$old" "$new"
git archive "$commit" packaging/debian systemd config examples/python examples/web README.md docs | tar -x -C "$old"
dpkg-deb -x "$deb" "$new"

src=$work/gestured-${version%-*}
stage=$src/stage
mkdir -p "$stage/layouts" "$stage/examples" "$stage/docs"
cp -r "$old/packaging/debian" "$src/debian"
# The version: COMMIT's changelog with its top entry relabelled.
sed -i "1s/^gestured ([^)]*)/gestured ($version)/" "$src/debian/changelog"
[ "$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)" = "$version" ] \
    || { echo "previous-package: could not relabel $commit's changelog as $version" >&2; exit 1; }

products=(gestured gestured-web)
for product in "${products[@]}"; do
    [ -x "$new/usr/bin/$product" ] || { echo "previous-package: $deb has no usr/bin/$product" >&2; exit 1; }
    cp "$new/usr/bin/$product" "$stage/"
    gzip -dc "$new/usr/share/man/man1/$product.1.gz" > "$stage/$product.1"
    [ "$product" = gestured ] || echo "stage/$product usr/bin" >> "$src/debian/gestured.install"
    [ "$product" = gestured ] || echo "stage/$product.1" >> "$src/debian/gestured.manpages"
done
cp "$old/systemd/gestured.service" "$old/systemd/gestured.socket" "$src/debian/"
extra_units=()
for product in "${products[@]}"; do
    [ "$product" != gestured ] && [ -f "$old/systemd/$product.service" ] || continue
    cp "$old/systemd/$product.service" "$src/debian/gestured.$product.service"
    extra_units+=("$product")
done
cp "$old/systemd/gestured.sysusers.conf" "$src/debian/gestured.sysusers"
cp "$old/systemd/70-gestured-touchscreen.rules" "$stage/"
mkdir -p "$stage/modules-load.d"
cp "$old/systemd/gestured-modules-load.conf" "$stage/modules-load.d/gestured.conf"
sed 's|^  device: "auto",$|  device: "/dev/input/touchscreen",|' "$old/config/lobby.json5" > "$stage/gestured.json5"
grep -q '^  device: "/dev/input/touchscreen",$' "$stage/gestured.json5" \
    || { echo "previous-package: $commit's config/lobby.json5 has no 'device: \"auto\",' line" >&2; exit 1; }
cp "$old/config/layouts/lobby.json5" "$stage/layouts/"
# The old conffile must be one the binaries read, or the previous package would not run.
"$stage/gestured" check-config "$stage/gestured.json5" >/dev/null
cp "$old/README.md" "$stage/"
cp "$old"/docs/*.md "$stage/docs/"
cp -r "$old/examples/python" "$old/examples/web" "$stage/examples/"
mkdir -p "$stage/examples/systemd"
cp "$old/systemd/gestured-web-control.conf" "$stage/examples/systemd/"
mkdir -p "$stage/examples/config/layouts"
cp "$old/config/lobby.json5" "$old/config/gallery.json5" "$old/config/map.json5" "$stage/examples/config/"
cp "$old"/config/layouts/*.json5 "$stage/examples/config/layouts/"

(cd "$src" && EXTRA_UNITS="${extra_units[*]}" debian/rules binary) > "$work/dh.log" 2>&1 \
    || { cat "$work/dh.log" >&2; echo "previous-package: debhelper failed" >&2; exit 1; }
mv "$work/gestured_${version}_amd64.deb" "$out/"
echo "$out/gestured_${version}_amd64.deb"
