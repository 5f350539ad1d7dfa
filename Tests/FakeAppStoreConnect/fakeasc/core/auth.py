"""App Store Connect's bearer tokens: ES256 JWTs signed with an API key's private key.

Header `alg` ES256, `kid` a known key id, `typ` JWT; payload `iss` the issuer id, `aud` appstoreconnect-v1,
`iat` at most 5 s in the future, `exp` in the future and at most 20 minutes after `iat`; the signature is the JWS
raw `r||s` (64 bytes). Anything else is 401 NOT_AUTHORIZED.
"""

import json
import time

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from .encoding import b64url_decode
from .errors import ApiError

MAX_LIFETIME = 20 * 60
CLOCK_SKEW = 5


def load_public_key(pem_bytes):
    return load_pem_public_key(pem_bytes)


def refuse(why):
    raise ApiError(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                   "Send a valid ES256 bearer token signed with your API key (%s)." % why)


def authenticate(authorization, keys, issuer_id, max_age=None, now=None):
    """Checks an `Authorization` header value; returns the key id (`kid`) the token was signed with.
    keys: key id -> public key."""
    if not authorization.startswith("Bearer "):
        refuse("no bearer token")
    token = authorization[len("Bearer "):].strip()
    parts = token.split(".")
    if len(parts) != 3:
        refuse("the token is not a JWS compact serialization")
    try:
        header = json.loads(b64url_decode(parts[0]))
        payload = json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
    except Exception:
        refuse("the token can't be decoded")
    if not isinstance(header, dict) or not isinstance(payload, dict):
        refuse("the token can't be decoded")
    if header.get("alg") != "ES256":
        refuse("alg must be ES256")
    key = keys.get(header.get("kid"))
    if key is None:
        refuse("unknown key id")
    if header.get("typ") != "JWT":
        refuse("typ must be JWT")
    if len(signature) != 64:
        refuse("the signature must be 64 bytes (r||s)")
    try:
        key.verify(encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")),
                   (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        refuse("bad signature")
    if payload.get("iss") != issuer_id:
        refuse("unknown issuer")
    if payload.get("aud") != "appstoreconnect-v1":
        refuse("aud must be appstoreconnect-v1")
    iat, exp = payload.get("iat"), payload.get("exp")
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (iat, exp)):
        refuse("iat and exp must be numeric dates")
    now = time.time() if now is None else now
    if iat > now + CLOCK_SKEW:
        refuse("iat is in the future")
    if exp <= now:
        refuse("the token has expired")
    if exp - iat > MAX_LIFETIME:
        refuse("the token lifetime is longer than 20 minutes")
    if max_age is not None and now - iat > max_age:
        refuse("the token has expired")
    return header["kid"]
