# iapkit: `make run` does the main job on examples/, `make test` runs every test. Both install what is missing.
SHELL := /bin/bash
ENV := source scripts/setup/pkg-config-env.sh &&
# Swift Testing's backtrace of every thrown error triples the round trip's time (scripts/test/test.sh says why).
NO_THROW_BACKTRACES := SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0

.PHONY: setup setup-tests build run test test-intro format bench roundtrip fuzz clean dist dist-check docs

setup:
	bash scripts/setup/setup.sh

setup-tests:
	bash scripts/setup/setup.sh --tests

build: setup
	$(ENV) swift build -c release

run: build
	bash scripts/demo/run-examples.sh

# The reference folder (third-party schemas, real Xcode files) is optional: without it the conformance tests are
# skipped with their reason and the generated reference data is not re-checked.
REFERENCE := $(or $(IAPKIT_REFERENCE),../shared)

test-intro:
	@echo "make test: builds iapkit and its tests in debug mode, about 10 minutes on 2 cores from a clean clone (a minute"
	@echo "when little changed), then runs every test, about 20 minutes; the last line counts the tests."

test: test-intro setup-tests
	bash scripts/test/check-format.sh
	python3 Tests/Install/test_install_files.py
	python3 Tests/Install/test_dist.py
	@if [ -d "$(REFERENCE)/reference" ]; then python3 scripts/codegen/generate-reference-data.py "$(REFERENCE)/reference" --check; fi
	$(ENV) swift build --build-tests
	IAPKIT_REFERENCE="$(REFERENCE)" python3 Tests/FakeAppStoreConnect/test_fake_asc.py
	$(ENV) IAPKIT_REFERENCE="$(REFERENCE)" bash scripts/test/test.sh

# Every Swift file as swift-format writes it with .swift-format (the generated client aside); `make test` checks it.
format:
	git ls-files '*.swift' | grep -v '^Sources/AppStoreConnectAPI/Generated/' | xargs swift-format format --in-place --parallel --configuration .swift-format

# The round-trip invariant over 2,000 generated App Store Connect states (`make test` runs 200); a failing seed
# prints itself and the command that replays it.
roundtrip: setup-tests
	$(ENV) swift build --build-tests
	$(ENV) $(NO_THROW_BACKTRACES) IAPKIT_SEEDS=$(or $(SEEDS),2000) IAPKIT_SEEDS_FROM=$(or $(SEEDS_FROM),0) swift test --skip-build --filter RoundTripTests

# Mutated translations, baselines and traces through the built iapkit (`make test` runs a few dozen): no crash, no
# run over 5 s, no file changed by a failing run. IAPKIT_FUZZ_SEED=N replays a run.
fuzz: setup-tests
	$(ENV) swift build --build-tests
	$(ENV) $(NO_THROW_BACKTRACES) IAPKIT_FUZZ_INPUTS=$(or $(FUZZ),5000) swift test --skip-build --filter FormatFuzzTests

# Measures the binary users run, the release archive's: `make dist` first.
bench: dist
	bash scripts/setup/setup.sh --bench
	bash scripts/bench/bench.sh

# The release archive dist/iapkit-VERSION-PLATFORM.tar.gz (+ .sha256) and the plugin's artifact bundle; then the
# archive tried as a new user would (README, Install). `make test` runs that check too when an archive is present.
dist:
	bash scripts/setup/setup.sh --dist
	bash scripts/dist/make-dist.sh

dist-check:
	python3 Tests/Install/test_dist.py --require

# The generated pages: docs/lint-rules.md from the lint rules, docs/catalog-reference.md from the catalog schema.
# GeneratedDocsTests fails when a committed page differs from what this writes.
docs: setup
	$(ENV) swift build --product iapkit
	bash scripts/docs/generate-docs.sh .build/debug/iapkit

clean:
	rm -rf .build out .bench dist
