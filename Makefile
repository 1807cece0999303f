# The two commands: `make run` and `make test`. Everything else is a convenience.
.PHONY: run test setup openapi sdk sqlx doctor fmt

run:      ## install what is missing, build, serve on 127.0.0.1:8080
	@scripts/run.sh

test:     ## install what is missing, then fmt, clippy and the whole test suite
	@scripts/test.sh

setup:    ## only install what is missing
	@scripts/setup.sh --test

openapi:  ## regenerate the committed OpenAPI document
	@CARGO_TARGET_DIR=$${CARGO_TARGET_DIR:-$$HOME/.cache/miniclaw/target} cargo run -q --bin miniclaw -- openapi > openapi/openapi.json
	@echo "openapi/openapi.json updated"

sdk:      ## regenerate the Python and TypeScript clients in clients/ from the OpenAPI document
	@scripts/sdk.sh

sqlx:     ## regenerate .sqlx/, the offline data of the compile-checked queries
	@scripts/sqlx-prepare.sh

doctor:   ## check the installation
	@CARGO_TARGET_DIR=$${CARGO_TARGET_DIR:-$$HOME/.cache/miniclaw/target} cargo run -q --bin miniclaw -- doctor

fmt:
	@cargo fmt
