# Shared set-up for scripts/serve and scripts/test. Each step checks what is already installed
# (by version) and skips it, so a warm run costs seconds. Source it; it exports PATH.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130

say() { printf '\n== %s (at %ds)\n' "$*" "$SECONDS"; }

setup_rust() {
  command -v cargo >/dev/null || { echo "cargo is missing: install Rust with rustup first" >&2; exit 1; }
  local installed
  installed=$(rustup component list --installed 2>/dev/null || true)
  for c in rustfmt clippy; do
    grep -q "^$c" <<<"$installed" || rustup component add "$c"
  done
  rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
}

setup_web() {
  setup_rust
  if ! trunk --version 2>/dev/null | grep -q "$TRUNK_VERSION"; then
    say "installing trunk $TRUNK_VERSION (about 9 minutes on 2 cores, once)"
    cargo install --locked "trunk@$TRUNK_VERSION"
  fi
  if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION"; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (once)"
    # Without --locked: its lockfile names a crate version the registry here lacks.
    cargo install "wasm-bindgen-cli@$WASM_BINDGEN_VERSION"
  fi
  if ! wasm-opt --version 2>/dev/null | grep -q "version 132" || ! tools_installed; then
    say "installing tools/package.json from npm: wasm-opt (binaryen 132), playwright-core, pixelmatch, pngjs, axe-core, yaml"
    command -v npm >/dev/null || { DEBIAN_FRONTEND=noninteractive apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm; }
    (cd "$ROOT/tools" && npm ci --no-audit --no-fund)
  fi
}

# Whether every package tools/package.json names is in tools/node_modules (a pull may add one).
tools_installed() {
  command -v node >/dev/null || return 1
  node -e 'const fs = require("fs"); const dir = process.argv[1];
    const deps = Object.keys(JSON.parse(fs.readFileSync(dir + "/package.json")).devDependencies);
    process.exit(deps.every((d) => fs.existsSync(dir + "/node_modules/" + d + "/package.json")) ? 0 : 1);' "$ROOT/tools"
}

setup_browser() {
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    say "installing Debian's chromium and chromium-driver"
    DEBIAN_FRONTEND=noninteractive apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
  fi
  # The screenshot tests read Chinese as text, not boxes: they need a CJK font.
  if ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then
    say "installing Debian's fonts-noto-cjk"
    DEBIAN_FRONTEND=noninteractive apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-noto-cjk
  fi
}
