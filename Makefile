# The two commands a new user needs (see README): `make dev` and `make test`.
GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
DATA    ?= data

.PHONY: build dev test test-postgres bench-api bench-vault bench-smtp fuzz vet
.PHONY: machines-setup bench-machines bench-send bench-webhooks

build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o bin/agentsvc ./cmd/agentsvc

# Runs the service in dev mode: SQLite and files under $(DATA), loopback
# listeners, a seeded organization in $(DATA)/dev-credentials.json.
dev: build
	-scripts/ensure-runsc.sh && scripts/ensure-image.sh $(DATA) # machines answer 503 if this fails
	./bin/agentsvc server --dev --data-dir $(DATA)

# Installs the pinned gVisor runsc and builds the machine base image into
# $(DATA)/images (root; about 2.5 + 2 minutes on a fresh machine, instant
# when done). Add the desktop image with: scripts/ensure-image.sh $(DATA) --desktop
machines-setup:
	scripts/ensure-runsc.sh
	scripts/ensure-image.sh $(DATA)

# Runs every test. Set AGENTSVC_TEST_POSTGRES=postgres://… to run the store
# and API suites on PostgreSQL as well (.ci/run does).
test:
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 30m ./...
	cd third_party/enmime && $(GO) test -count=1 ./...

# Starts a local PostgreSQL (installing it from Debian's packages if needed)
# and runs the tests against it too.
test-postgres:
	AGENTSVC_TEST_POSTGRES="$$(scripts/postgres-for-tests.sh)" $(MAKE) test

# GET /api/v1/me at 64 connections for 10 s beside a bare net/http handler.
bench-api:
	$(GO) run ./cmd/agentsvc-bench api

fuzz:
	$(GO) test ./internal/httpapi -run '^$$' -fuzz FuzzCursor -fuzztime 30s
	$(GO) test ./internal/httpapi -run '^$$' -fuzz FuzzRequestBody -fuzztime 30s

bench-vault:
	$(GO) run ./cmd/agentsvc-bench vault

bench-smtp:
	$(GO) run ./cmd/agentsvc-bench smtp
	$(GO) run ./cmd/agentsvc-bench arrival
	$(GO) run ./cmd/agentsvc-bench longpoll

bench-machines:
	$(GO) run ./cmd/agentsvc-bench machines

bench-send:
	$(GO) run ./cmd/agentsvc-bench send

bench-webhooks:
	$(GO) run ./cmd/agentsvc-bench webhooks
