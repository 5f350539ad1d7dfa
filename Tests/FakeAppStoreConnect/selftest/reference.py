"""Where Apple's OpenAPI document is: IAPKIT_REFERENCE names the folder holding `reference/` (the Makefile's and
the Swift tests' convention) or, as this self-test first took it, the `reference` folder itself."""

import os

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
NAME = "app-store-connect-openapi.json"


def openapi_document():
    folder = os.environ.get("IAPKIT_REFERENCE") or os.path.join(os.path.dirname(REPO), "shared")
    for candidate in (os.path.join(folder, "reference", NAME), os.path.join(folder, NAME)):
        if os.path.exists(candidate):
            return candidate
    return None


OPENAPI = openapi_document()
