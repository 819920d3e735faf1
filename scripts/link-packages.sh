#!/bin/sh
# Makes the lab's own packages importable by name: for every folder of ROOT (default: the repository), of
# ROOT/services and of ROOT/agents whose package.json is named @lab/<name>, a link ROOT/node_modules/@lab/<name> to it, where Node's
# resolution finds it from any file below ROOT. Run by `make setup` and by each image's Dockerfile (the image holds
# only the packages it copied, so it links only those). A link already right is left alone, so a run beside tests
# that load these packages never takes one away from them. POSIX sh: the images have no bash.
set -eu
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
mkdir -p "$root/node_modules/@lab"
for manifest in "$root"/*/package.json "$root"/services/*/package.json "$root"/agents/*/package.json; do
  [ -f "$manifest" ] || continue
  name=$(sed -n 's/^ *"name": *"@lab\/\([^"]*\)".*/\1/p' "$manifest" | head -n 1)
  [ -n "$name" ] || continue
  folder=${manifest%/package.json}
  target="../../${folder#"$root"/}"
  link="$root/node_modules/@lab/$name"
  [ "$(readlink "$link" 2>/dev/null || true)" = "$target" ] && continue
  # -n: a link to a folder is replaced, not followed (plain -s would make a link inside the folder it points at).
  [ -L "$link" ] || rm -rf "$link"
  ln -sfn "$target" "$link"
done
# A link left by a package since renamed or removed points nowhere: dropped.
for link in "$root"/node_modules/@lab/*; do
  if [ -L "$link" ] && [ ! -e "$link" ]; then rm -f "$link"; fi
done
