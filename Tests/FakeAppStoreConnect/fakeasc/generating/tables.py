"""What the generator picks from: territories, locales, periods, price points, review states; every class it
builds; and the images and days it makes."""

import hashlib
import struct
import zlib

from ..reference import FREE_POINT, USD_POINTS
from ..resources.images import SIZE as PROMO_SIZE

# Territories the generator picks from for partial states (priced, sold, offered in only some).
PALETTE = ["USA", "FRA", "GBR", "IND", "JPN", "BRA", "DEU", "CAN", "AUS", "MEX"]
LOCALES = ["en-US", "fr-FR", "de-DE", "ja", "pt-BR", "es-MX"]
PERIODS = ["ONE_WEEK", "ONE_MONTH", "TWO_MONTHS", "THREE_MONTHS", "SIX_MONTHS", "ONE_YEAR"]
IAP_TYPES = ["CONSUMABLE", "NON_CONSUMABLE", "NON_RENEWING_SUBSCRIPTION"]
PAID_POINTS = [n for n, usd in USD_POINTS if n != FREE_POINT and 0.5 <= float(usd) <= 60]
IAP_ELIGIBILITIES = ["NON_SPENDER", "ACTIVE_SPENDER", "CHURNED_SPENDER"]

# Product states as App Store Connect reports them, and the state of the version holding their texts. A "ready"
# product's state is then computed from what it holds: READY_TO_SUBMIT, or MISSING_METADATA while a part is missing.
STATES = {"created": ("MISSING_METADATA", None), "ready": ("READY_TO_SUBMIT", "PREPARE_FOR_SUBMISSION"),
          "in-review": ("WAITING_FOR_REVIEW", "WAITING_FOR_REVIEW"), "approved": ("APPROVED", "APPROVED"),
          "removed": ("DEVELOPER_REMOVED_FROM_SALE", "APPROVED")}

# Every class the generator builds, for the test's coverage report.
CLASSES = [
    "state:created", "state:ready", "state:ready-to-submit", "state:in-review", "state:approved", "state:removed",
    "availability:none", "availability:legacy", "availability:everywhere", "availability:some", "availability:some+new",
    "price:none", "price:base", "price:base+territories", "price:some-territories", "price:base-not-usa",
    "price:scheduled", "price:started+scheduled", "price:scheduled-some-territories",
    "price:scheduled-back-to-equalized", "price:priced-beyond-availability",
    "intro:none", "intro:free-trial", "intro:paid-some-territories",
    "promotional", "promotional:paid", "promotional:some-territories", "promotional:free-territory", "offer-code",
    "offer-code:some-territories", "offer-code:batches", "offer-code:custom", "offer-code:inactive",
    "offer-code:batch-inactive", "offer-code:custom-inactive", "offer-code:sandbox", "iap-offer-code", "iap-offer-code:free", "iap-offer-code:paid",
    "iap-offer-code:territory-price", "iap-offer-code:some-territories", "iap-offer-code:batches", "iap-offer-code:custom", "iap-offer-code:inactive",
    "iap-offer-code:batch-inactive", "iap-offer-code:custom-inactive", "iap-offer-code:sandbox", "win-back", "win-back:some-territories",
    "win-back:eligibility", "win-back:high-priority", "win-back:promoted", "win-back:scheduled", "win-back:ends",
    "screenshot:none", "screenshot:complete", "screenshot:awaiting-upload",
    "image:none", "image:complete", "image:awaiting-upload",
    "reviewNote:null", "reviewNote:text", "localizations:several",
    "promoted:visible", "promoted:hidden", "promoted:disabled",
    "subscription:multiseat-on", "subscription:multiseat-off", "subscription:multiseat-some-markets",
    "subscription:multiseat-family-shared", "subscription:multiseat-unset",
] + [
    # The app's own classes, answered in `appClasses`.
    "grace:off-default", "grace:on", "grace:sandbox-only", "grace:off-changed", "promoted:reordered",
    "app-version:none", "app-version:live", "app-version:editable",
]


def tiny_png(seed):
    """A valid 2x2 PNG whose pixels depend on the seed, so two screenshots differ."""
    pixels = hashlib.sha256(str(seed).encode()).digest()[:12]
    raw = b"".join(b"\x00" + pixels[row * 6:row * 6 + 6] for row in range(2))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def promo_png(seed):
    """A valid 1024x1024 opaque RGB PNG (colour type 2, no tRNS) whose colour depends on the seed, so two promotional
    images differ."""
    colour = hashlib.sha256(str(seed).encode()).digest()[:3]
    raw = (b"\x00" + colour * PROMO_SIZE) * PROMO_SIZE

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", PROMO_SIZE, PROMO_SIZE, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def add_days(day, n):
    import datetime
    return (datetime.date.fromisoformat(day) + datetime.timedelta(days=n)).isoformat()

