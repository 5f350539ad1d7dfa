"""The fake App Store Connect as a package: `core` (HTTP, JSON:API documents, authentication, faults, rate limit,
request log, control API), `contract` (request and response validation), `resources` (one module per resource
family) and `service` (the FakeASC object that ties them together). `fake_asc.py` is the entry point."""
