# The two commands the README gives, and a few conveniences.
.PHONY: run test build renderer check clean

# Build everything and start pawpath on the embedded SQLite default: http://localhost:8080/quote
run: renderer
	cargo run --release -p pawpath-server --bin pawpath

# Every test: Rust (SQLite and, when reachable, PostgreSQL), Vitest, the build, Playwright.
test:
	./tests/run-all.sh

renderer:
	cd renderer && npm ci --no-audit --no-fund --loglevel=error && npm run build

build: renderer
	cargo build --release -p pawpath-server --bin pawpath

clean:
	cargo clean
	rm -rf renderer/dist renderer/node_modules renderer/src/generated tests/node_modules tests/test-results
