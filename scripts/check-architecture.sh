#!/usr/bin/env bash
# Checks that the module diagram of docs/architecture.md ("Modules") is true: its arrows must be
# exactly the dependencies the code has. Three lists are compared:
#   - the diagram's arrows, `A --> B` in the first mermaid block after "## Modules" (a node's
#     module name is the first word of its label, or its id without a label);
#   - the `import` statements of each target's Swift files (the targets and their folders as
#     `swift package dump-package` reports them: every target but tests, plugins and the test
#     support library);
#   - the target dependencies Package.swift declares.
# A module of another package is drawn as its package (EXTERNAL below); the platform's own
# modules (PLATFORM) are not drawn, except Foundation, which the core must never import.
# Exits 1 and prints every difference, naming the file and line of the import or the diagram's
# arrow; scripts/test.sh runs it before the Swift suite.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
package_json=$(mktemp)
trap 'rm -f "$package_json"' EXIT
# Its own scratch path, so that it never waits for (or blocks) a build holding .build's lock.
swift package --scratch-path "${TMPDIR:-/tmp}/gestured-check-architecture" dump-package >"$package_json"

python3 - "$package_json" docs/architecture.md <<'PY'
import json, os, re, sys

package_json, diagram_file = sys.argv[1], sys.argv[2]
# Modules of other packages, drawn as one node per package (Package.swift is checked module by
# module).
EXTERNAL = {
    "NIOCore": "SwiftNIO", "NIOPosix": "SwiftNIO", "NIOHTTP1": "SwiftNIO",
    "NIOWebSocket": "SwiftNIO", "NIOConcurrencyHelpers": "SwiftNIO",
    "Logging": "Logging", "SystemPackage": "SystemPackage", "ArgumentParser": "ArgumentParser",
    "FoundationEssentials": "Foundation", "Foundation": "Foundation",
}
# The platform's modules, never drawn (Foundation is, above).
PLATFORM = {"Swift", "_Concurrency", "Glibc", "Musl", "Darwin", "Synchronization", "PackagePlugin"}

package = json.load(open(package_json))
targets = {}
for target in package["targets"]:
    if target["type"] in ("test", "plugin") or target["name"] == "TestSupport":
        continue
    targets[target["name"]] = target
problems = []

def node(module):
    return EXTERNAL.get(module, module)

# 1. Package.swift's declared dependencies.
declared = set()
for name, target in targets.items():
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        declared.add((name, value[0]))

# 2. The imports, with where each edge is first seen.
imported, imported_modules = {}, {}
import_line = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public\s+|package\s+|internal\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")
for name, target in targets.items():
    if target["type"] == "system":
        continue
    folder = target.get("path") or os.path.join("Sources", name)
    for root, _, files in sorted(os.walk(folder)):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            path = os.path.join(root, file)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                match = import_line.match(line)
                if not match or match.group(1) in PLATFORM:
                    continue
                imported.setdefault((name, node(match.group(1))), f"{path}:{number}")
                imported_modules.setdefault((name, match.group(1)), f"{path}:{number}")

# 3. The diagram's arrows.
lines = open(diagram_file, encoding="utf-8").read().split("\n")
try:
    start = next(i for i, l in enumerate(lines) if l.strip() == "## Modules")
    start = next(i for i in range(start, len(lines)) if lines[i].strip() == "```mermaid")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].strip() == "```")
except StopIteration:
    sys.exit(f"{diagram_file}: no mermaid block after \"## Modules\"")
names, arrows = {}, {}
node_pattern = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\[\"([^\"<]*)")
arrow_pattern = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*-->\s*([A-Za-z][A-Za-z0-9_]*)\s*$")
for number in range(start + 1, end):
    line = lines[number]
    if (match := node_pattern.match(line)):
        names[match.group(1)] = match.group(2).split()[0]
for number in range(start + 1, end):
    line = lines[number]
    if (match := arrow_pattern.match(line)):
        a, b = (names.get(i, i) for i in match.groups())
        arrows[(a, b)] = f"{diagram_file}:{number + 1}"
    elif "-->" in line:
        problems.append(f"{diagram_file}:{number + 1}: an arrow must read `A --> B`, one per line: {line.strip()}")

for edge in sorted(set(imported) - set(arrows)):
    problems.append(f"{imported[edge]}: {edge[0]} imports {edge[1]}, but the diagram has no arrow {edge[0]} --> {edge[1]}")
for edge in sorted(set(arrows) - set(imported)):
    problems.append(f"{arrows[edge]}: the diagram's arrow {edge[0]} --> {edge[1]}, but no file of {edge[0]} imports {edge[1]}")
# Foundation comes with the toolchain: Package.swift cannot declare it.
for edge in sorted(set(imported_modules) - declared):
    if node(edge[1]) != "Foundation":
        problems.append(f"{imported_modules[edge]}: {edge[0]} imports {edge[1]}, which Package.swift does not declare as its dependency")
for edge in sorted(declared - set(imported_modules)):
    problems.append(f"Package.swift: {edge[0]} declares a dependency on {edge[1]}, which none of its files imports")
for edge in sorted(set(imported)):
    if edge[0] == "GestureCore":
        problems.append(f"{imported[edge]}: the pure core imports {edge[1]}")
if problems:
    print("check-architecture: the module diagram (docs/architecture.md, \"Modules\"), the imports and Package.swift disagree:", file=sys.stderr)
    for problem in problems:
        print("  " + problem, file=sys.stderr)
    sys.exit(1)
print(f"check-architecture: the diagram's {len(arrows)} arrows match the imports and Package.swift of {len(targets)} targets")
PY
