# iapkit: `make run` does the main job on examples/, `make test` runs every test. Both install what is missing.
SHELL := /bin/bash
ENV := source scripts/pkg-config-env.sh &&

.PHONY: setup setup-tests build run test bench clean

setup:
	bash scripts/setup.sh

setup-tests:
	bash scripts/setup.sh --tests

build: setup
	$(ENV) swift build -c release

run: build
	bash scripts/run-examples.sh

test: setup-tests
	@if [ -d ../shared/reference ]; then python3 scripts/generate-reference-data.py ../shared/reference --check; fi
	$(ENV) swift build --build-tests
	$(ENV) swift test --skip-build
	python3 Tests/FakeAppStoreConnect/test_fake_asc.py

bench: build
	bash scripts/setup.sh --bench
	bash scripts/bench.sh

clean:
	rm -rf .build out .bench
