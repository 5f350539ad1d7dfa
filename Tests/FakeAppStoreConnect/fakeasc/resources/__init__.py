"""One module per resource family. Each defines `ROUTES` — (method, Apple's path template, operationId, handler
name) — and a mixin class with those handlers; `service.FakeASC` combines them."""
