"""Request and response contracts. Two implementations share one interface (`query_errors`, `body_errors`,
`response_error`, `stats`):
- OpenAPIContract validates with jsonschema against Apple's OpenAPI document;
- BuiltinContract enforces the hand-written contract in builtin_tables.py.
Both add the unknown-member checks of common.py."""

from .builtin import BuiltinContract  # noqa: F401
from .openapi import OpenAPIContract  # noqa: F401
