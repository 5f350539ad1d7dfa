#!/usr/bin/env python3
"""Self-test of the fake App Store Connect: it refuses what App Store Connect refuses and accepts the flows iapkit
uses. Runs the fake with its built-in contract, and again against Apple's OpenAPI document when the reference
folder has it. IAPKIT_REFERENCE names the folder holding `reference/` (as the Makefile and the Swift tests use it;
default: the `shared` folder beside the repository) or the `reference` folder itself.

The cases live in selftest/ (one mixin per area); each runs in both modes.

usage: python3 Tests/FakeAppStoreConnect/test_fake_asc.py [unittest arguments]
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from selftest.cases_answer_shapes import AnswerShapeCases  # noqa: E402
from selftest.cases_asset_pack_releases import AssetPackReleaseCases  # noqa: E402
from selftest.cases_background_assets import BackgroundAssetCases  # noqa: E402
from selftest.cases_core import CoreCases  # noqa: E402
from selftest.cases_generator import GeneratorCases  # noqa: E402
from selftest.cases_iap_offer_codes import IapOfferCodeCases  # noqa: E402
from selftest.cases_images import ImageCases  # noqa: E402
from selftest.cases_includes import BuiltinTablesMatchDocument, IncludeCases  # noqa: E402,F401
from selftest.cases_multiseat import MultiSeatCases, OverlayMatchesBuiltinTables  # noqa: E402,F401
from selftest.cases_offer_codes import OfferCodeCases  # noqa: E402
from selftest.cases_prices import PriceCases  # noqa: E402
from selftest.cases_products import ProductCases  # noqa: E402
from selftest.cases_promoted_grace import PromotedGraceCases  # noqa: E402
from selftest.cases_review_and_removal import ReviewAndRemovalCases  # noqa: E402
from selftest.cases_service import ServiceCases  # noqa: E402
from selftest.cases_subscription_writes import SubscriptionWriteCases  # noqa: E402
from selftest.harness import FakeTestCase  # noqa: E402
from selftest.reference import OPENAPI  # noqa: E402


class AllCases(CoreCases, ProductCases, PriceCases, IncludeCases, SubscriptionWriteCases, ServiceCases,
               BackgroundAssetCases, GeneratorCases, PromotedGraceCases, ReviewAndRemovalCases, AssetPackReleaseCases,
               OfferCodeCases, ImageCases, IapOfferCodeCases, AnswerShapeCases, MultiSeatCases, FakeTestCase):
    pass


class BuiltinContractTests(AllCases, unittest.TestCase):
    openapi = None


@unittest.skipUnless(OPENAPI, "Apple's OpenAPI document not found (set IAPKIT_REFERENCE)")
class OpenAPIContractTests(AllCases, unittest.TestCase):
    openapi = OPENAPI


if __name__ == "__main__":
    if not OPENAPI:
        print("test_fake_asc: skipping the OpenAPI mode: no app-store-connect-openapi.json found (set IAPKIT_REFERENCE)")
    unittest.main(verbosity=1)
