#!/usr/bin/env bash
# Every test pawpath has, in the order that fails fastest: Rust (SQLite, then PostgreSQL when
# one is reachable), the renderer's type check and Vitest, the build with its bundle report,
# then the browser tests in Debian's Chromium against the real binary.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's time, printed at the end beside the counts (CI's length is the team's speed).
stages=()
stage_started=$SECONDS
stage_name=""
step() {
  if [ -n "$stage_name" ]; then stages+=("$(( SECONDS - stage_started ))s  $stage_name"); fi
  stage_name="$*"
  stage_started=$SECONDS
  printf '\n==> %s\n' "$*"
}

# Everything printed is also kept, to add up the runners' counts at the end.
log=$(mktemp)
exec > >(tee "$log") 2>&1

summary() {
  local plain passed failed
  plain=$(sed 's/\x1b\[[0-9;]*m//g' "$log")
  passed=$( { grep -oE '^test result: [a-zA-Z]+\. [0-9]+ passed' <<<"$plain" | grep -oE '[0-9]+ passed' || true;
              grep -oE '^ +Tests +[0-9]+ passed' <<<"$plain" | grep -oE '[0-9]+ passed' || true;
              grep -oE '^ +[0-9]+ passed \(' <<<"$plain" | grep -oE '[0-9]+ passed' || true; } | awk '{s+=$1} END {print s+0}')
  failed=$( { grep -oE '^test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed' <<<"$plain" | grep -oE '[0-9]+ failed' || true;
              grep -oE '^ +Tests +.*[0-9]+ failed' <<<"$plain" | grep -oE '[0-9]+ failed' || true;
              grep -oE '^ +[0-9]+ failed$' <<<"$plain" | grep -oE '[0-9]+ failed' || true; } | awk '{s+=$1} END {print s+0}')
  if [ -n "$stage_name" ]; then stages+=("$(( SECONDS - stage_started ))s  $stage_name"); fi
  echo
  echo "Stages (${SECONDS}s in all):"
  printf '  %s\n' "${stages[@]}"
  echo
  echo "${passed} passed, ${failed} failed"
}
trap summary EXIT

step "Installing what a fresh machine lacks"
if [ ! -x /usr/bin/chromium ]; then
  # Debian's Chromium: no test tool may download a browser of its own.
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: run 'sudo apt-get install chromium' (Debian's package) and try again." >&2
    exit 1
  fi
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
(cd renderer && npm ci --no-audit --no-fund --loglevel=error)
(cd tests && npm ci --no-audit --no-fund --loglevel=error)

step "Rust: format, then one build with clippy's lints"
cargo fmt --all -- --check
# Clippy lints the workspace's crates as they are compiled for the tests: clippy-driver is the
# workspace's compiler, as `cargo clippy` itself makes it, with its arguments passed the way
# cargo-clippy passes them. So the dependencies are compiled once, not checked for clippy and
# compiled again (about a third of a fresh build). Every cargo command below keeps the same
# compiler and selects the whole workspace, so each reuses this one build (a narrower selection,
# such as `cargo build -p pawpath-server`, resolves the features without the dev-dependencies
# and links the server again).
clippy_driver=$(command -v clippy-driver || true)
if [ -z "$clippy_driver" ]; then
  echo "clippy-driver is missing: 'rustup component add clippy' and try again." >&2
  exit 1
fi
export RUSTC_WORKSPACE_WRAPPER="$clippy_driver"
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
# A build from nothing gains nothing from incremental compilation's records, and pays for them.
if [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=0; fi
cargo test --workspace --all-targets --no-run --quiet

# Many of the server's tests wait on servers of their own and on clocks, so more of them run at
# once than there are cores.
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-4}"

step "Rust tests on SQLite"
PAWPATH_TEST_DATABASE=sqlite cargo test --workspace

# The renderer's checks and build need no database and little of what the Rust tests use: they
# run beside the PostgreSQL tests (whose servers mostly wait on the database and on clocks), and
# their output is printed when they are waited for, before the browser tests that need the build.
renderer_log=$(mktemp)
(cd renderer && npm run --silent typecheck && npm run --silent lint && npm test --silent && npm run --silent build) >"$renderer_log" 2>&1 &
renderer_pid=$!

postgres_url=""
if [[ "${DATABASE_URL:-}" == postgres* ]]; then
  postgres_url="$DATABASE_URL"
elif command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432; then
  postgres_url="postgres://postgres@127.0.0.1:5432/postgres"
fi
if [ -n "$postgres_url" ]; then
  step "Rust server tests on PostgreSQL"
  # Four at a time, as on SQLite: each test server holds up to six connections (its
  # configuration in server/tests/api/common), some tests start three servers on one database,
  # and PostgreSQL's default allows 100.
  PAWPATH_TEST_DATABASE="$postgres_url" cargo test --workspace --test api --test card_payment_api
  # Each test made its own database; drop them, through one connection.
  if command -v psql >/dev/null; then
    psql "$postgres_url" -Atqc "select format('drop database if exists %I;', datname) from pg_database where datname like 'pawpath_test_%'" |
      psql "$postgres_url" -q >/dev/null
  fi
else
  step "PostgreSQL not reachable (127.0.0.1:5432 or DATABASE_URL): its run is skipped"
fi

step "Renderer: type check, Vitest, build and bundle report (started beside PostgreSQL; the time here is what was left)"
renderer_status=0
wait "$renderer_pid" || renderer_status=$?
cat "$renderer_log"
if [ "$renderer_status" -ne 0 ]; then
  echo "The renderer's checks or build failed (exit $renderer_status)." >&2
  exit "$renderer_status"
fi

step "Definitions: pawpath check (the lint and the deeper checks)"
# The binary the tests above built (and the browser tests below serve).
./target/debug/pawpath check

step "Container image recipe (server/deploy/Dockerfile, compose.yaml)"
if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  docker build -f server/deploy/Dockerfile -t pawpath:ci .
  docker compose -f server/deploy/compose.yaml config --quiet
  echo "The image built and the compose file is valid."
else
  echo "NOT BUILT: no container engine on this machine ('docker info' fails), so the image recipe"
  echo "is not built here. What can be checked without one is (server/tests/api/deploy.rs: the compose"
  echo "file's configuration is accepted by pawpath, the image runs without privileges and copies"
  echo "what exists). Build it where an engine runs: docker build -f server/deploy/Dockerfile ."
fi

step "Browser tests (Playwright, Debian's Chromium, axe-core)"
(cd tests && npx playwright test)
