"""Base64url without padding, as JWTs, cursors and App Store Connect's price point ids use it."""

import base64


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
