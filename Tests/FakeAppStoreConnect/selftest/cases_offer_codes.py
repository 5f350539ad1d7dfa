"""Subscription offer codes' codes: batches of one-time use codes and their values (CSV), custom codes, the limits on
counts and expiration dates, deactivating codes and offer codes, `include=` of the codes, what the managed view shows
of them (never a code's value), and generated codes App Store Connect could hold and a push could make again."""

import json
import re
import urllib.error
import urllib.request

from .cases_generator import OFFER_CODE_CLASSES as CODE_CLASSES, ROUND_TRIP

TODAY = "2031-03-01"  # the first quarter of 2031; codes expire by 2031-09-01 at the latest
BATCH_PATH, CUSTOM_PATH = "/v1/subscriptionOfferCodeOneTimeUseCodes", "/v1/subscriptionOfferCodeCustomCodes"


class OfferCodeCases:
    # -- helpers
    def offer_code(self, sub_id, name="Spring"):
        return self.call("POST", "/v1/subscriptionOfferCodes", {
            "data": {"type": "subscriptionOfferCodes",
                     "attributes": {"name": name, "customerEligibilities": ["NEW", "EXPIRED"],
                                    "offerEligibility": "STACK_WITH_INTRO_OFFERS", "offerMode": "FREE_TRIAL",
                                    "duration": "ONE_MONTH", "numberOfPeriods": 1},
                     "relationships": {"subscription": self.linkage("subscriptions", sub_id),
                                       "prices": {"data": [{"type": "subscriptionOfferCodePrices", "id": "usa"}]}}},
            "included": [{"type": "subscriptionOfferCodePrices", "id": "usa",
                          "relationships": {"territory": self.linkage("territories", "USA")}}]}, 201)[1]["data"]

    def new_offer_code(self, name="Spring"):
        _, sub = self.create_group_and_subscription()
        return sub, self.offer_code(sub["id"], name)

    # `owner`: whose offer code, "subscription" or "inAppPurchase" (the prefix of the types).
    def batch(self, offer_id, count=3, expires="2031-05-01", environment=None, expect=201, owner="subscription",
              approved=True, **extra):
        """A batch of codes; an in-app purchase's production codes need the purchase approved, done first unless
        `approved` is False."""
        if owner == "inAppPurchase" and approved and environment in (None, "PRODUCTION"):
            self.fake.control("POST", "approve", {"appId": self.app})
        attributes = dict({"numberOfCodes": count, "expirationDate": expires}, **extra)
        if environment:
            attributes["environment"] = environment
        return self.call("POST", "/v1/%sOfferCodeOneTimeUseCodes" % owner, {"data": {
            "type": owner + "OfferCodeOneTimeUseCodes", "attributes": attributes,
            "relationships": {"offerCode": self.linkage(owner + "OfferCodes", offer_id)}}}, expect)[1]

    def custom(self, offer_id, code="SPRING2031", count=500, expires=None, expect=201, owner="subscription",
               approved=True):
        if owner == "inAppPurchase" and approved:
            self.fake.control("POST", "approve", {"appId": self.app})
        attributes = {"customCode": code, "numberOfCodes": count}
        if expires:
            attributes["expirationDate"] = expires
        return self.call("POST", "/v1/%sOfferCodeCustomCodes" % owner, {"data": {
            "type": owner + "OfferCodeCustomCodes", "attributes": attributes,
            "relationships": {"offerCode": self.linkage(owner + "OfferCodes", offer_id)}}}, expect)[1]

    def set_active(self, path, type_, id_, active, expect=200, body_id=None):
        return self.call("PATCH", "%s/%s" % (path, id_), {"data": {
            "type": type_, "id": body_id or id_, "attributes": {"active": active}}}, expect)[1]

    def values(self, batch_id, owner="subscription"):
        """(status, media type, text) of the batch's /values."""
        req = urllib.request.Request(self.fake.base + "/v1/%sOfferCodeOneTimeUseCodes/%s/values" % (owner, batch_id))
        req.add_header("Authorization", "Bearer " + self.fake.token)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, resp.headers.get("Content-Type"), resp.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Content-Type"), e.read().decode()

    def offer_code_view(self, app, name="Spring"):
        view = self.fake.control("POST", "managed", {"appId": app})
        return next(s["offerCodes"][name] for g in view["subscriptionGroups"].values()
                    for s in g["subscriptions"].values() if name in s["offerCodes"])

    # -- one-time use codes
    def test_batches_of_one_time_use_codes(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        _, offer = self.new_offer_code()
        self.assertEqual(offer["attributes"]["active"], True)
        made = self.batch(offer["id"])["data"]
        a = made["attributes"]
        self.assertEqual((a["numberOfCodes"], a["expirationDate"], a["active"], a["environment"]),
                         (3, "2031-05-01", True, "PRODUCTION"))
        self.assertTrue(a["createdDate"].startswith(TODAY + "T"), a["createdDate"])
        self.assertLinksOnly(made, "offerCode")  # a create's answer carries no linkage
        self.assertNotIn("values", a)
        sandbox = self.batch(offer["id"], 5, "2031-09-01", environment="SANDBOX")["data"]  # six months on: the last day
        self.assertEqual(sandbox["attributes"]["environment"], "SANDBOX")
        doc = self.call("GET", "%s/%s?include=offerCode&fields[subscriptionOfferCodeOneTimeUseCodes]=numberOfCodes"
                        % (BATCH_PATH, made["id"]), expect=200)[1]
        self.assertEqual(doc["data"]["attributes"], a)
        self.assertEqual(doc["data"]["relationships"]["offerCode"]["data"],
                         {"type": "subscriptionOfferCodes", "id": offer["id"]})
        self.assertEqual([(x["type"], x["id"]) for x in doc["included"]], [("subscriptionOfferCodes", offer["id"])])
        listing = self.call("GET", "/v1/subscriptionOfferCodes/%s/oneTimeUseCodes?limit=1" % offer["id"], expect=200)[1]
        self.assertEqual(([x["id"] for x in listing["data"]], listing["meta"]["paging"]), ([made["id"]],
                                                                                          {"total": 2, "limit": 1}))
        following = self.call("GET", listing["links"]["next"], expect=200)[1]
        self.assertEqual([x["id"] for x in following["data"]], [sandbox["id"]])
        self.call("GET", "/v1/subscriptionOfferCodes/%s/oneTimeUseCodes?include=subscription" % offer["id"], expect=400)
        # the offer code counts its codes
        counts = self.call("GET", "/v1/subscriptionOfferCodes/" + offer["id"], expect=200)[1]["data"]["attributes"]
        self.assertEqual((counts["totalNumberOfCodes"], counts["productionCodeCount"], counts["sandboxCodeCount"]),
                         (8, 3, 5))
        # the values: one code a line, the same on every read, distinct
        status, media, text = self.values(made["id"])
        self.assertEqual((status, media), (200, "text/csv"))
        codes = text.splitlines()
        self.assertEqual(text, "".join(c + "\n" for c in codes))
        self.assertEqual(len(codes), 3)
        self.assertEqual(len(set(codes)), 3)
        self.assertTrue(all(re.match(r"^[A-Z0-9]{12}$", c) for c in codes), codes)
        self.assertEqual(self.values(made["id"])[2], text)
        self.assertEqual(len(self.values(sandbox["id"])[2].splitlines()), 5)
        self.assertFalse(set(codes) & set(self.values(sandbox["id"])[2].splitlines()))
        self.assertEqual(self.values("nope")[0], 404)
        self.call("GET", BATCH_PATH + "/nope", expect=404)
        self.call("GET", "/v1/subscriptionOfferCodes/nope/oneTimeUseCodes", expect=404)
        self.call("DELETE", "%s/%s" % (BATCH_PATH, made["id"]), expect=405)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_batch_limits(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        _, offer = self.new_offer_code()
        oid = offer["id"]
        for count in (0, -5):
            self.assertError(self.batch(oid, count, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                             "/data/attributes/numberOfCodes")
        for expires in ("2031-02-28", "2031-09-02", "2032-01-01"):  # yesterday; beyond six months
            self.assertError(self.batch(oid, 1, expires, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                             "/data/attributes/expirationDate")
        self.batch(oid, 1, TODAY)  # expires at the end of today
        self.assertError(self.batch(oid, 1, "2031-02-30", expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/expirationDate")
        self.assertError(self.batch(oid, 1, environment="STAGING", expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/environment")
        self.assertError(self.batch(oid, 1, active=False, expect=409), "ENTITY_ERROR.ATTRIBUTE.UNKNOWN",
                         "/data/attributes/active")
        self.assertError(self.call("POST", BATCH_PATH, {"data": {
            "type": "subscriptionOfferCodeOneTimeUseCodes", "attributes": {"numberOfCodes": 1},
            "relationships": {"offerCode": self.linkage("subscriptionOfferCodes", oid)}}}, 409)[1],
            "ENTITY_ERROR.ATTRIBUTE.REQUIRED", "/data/attributes/expirationDate")
        self.batch("nope", 1, expect=404)
        # an app's production codes: 1,000,000 a quarter (1 made above); sandbox codes aside
        self.assertError(self.batch(oid, 1000000, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/numberOfCodes")
        self.batch(oid, 999999)
        self.assertError(self.batch(oid, 1, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/numberOfCodes")
        self.batch(oid, 10, environment="SANDBOX")
        other = self.fake.control("POST", "apps", {"name": "Other", "bundleId": "com.example.other"})["id"]
        mine, self.app = self.app, other
        _, elsewhere = self.new_offer_code()  # another app has a quarter of its own
        self.batch(elsewhere["id"], 1000)
        self.app = mine
        self.fake.control("POST", "settings", {"today": "2031-04-01"})  # a new quarter
        self.batch(oid, 1, "2031-10-01")
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    # -- custom codes
    def test_custom_codes(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        sub, offer = self.new_offer_code()
        made = self.custom(offer["id"])["data"]
        a = made["attributes"]
        self.assertEqual((a["customCode"], a["numberOfCodes"], a["active"]), ("SPRING2031", 500, True))
        self.assertIsNone(a["expirationDate"])  # never expires: answered null, as App Store Connect does
        self.assertTrue(a["createdDate"].startswith(TODAY + "T"))
        self.assertLinksOnly(made, "offerCode")
        dated = self.custom(offer["id"], "summer31", 20, "2031-08-31")["data"]
        self.assertEqual(dated["attributes"]["expirationDate"], "2031-08-31")
        doc = self.call("GET", "%s/%s?include=offerCode" % (CUSTOM_PATH, made["id"]), expect=200)[1]
        self.assertEqual(doc["data"]["relationships"]["offerCode"]["data"]["id"], offer["id"])
        self.assertEqual(doc["included"][0]["id"], offer["id"])
        listing = self.call("GET", "/v1/subscriptionOfferCodes/%s/customCodes?include=offerCode&limit=200"
                            % offer["id"], expect=200)[1]
        self.assertEqual([x["attributes"]["customCode"] for x in listing["data"]], ["SPRING2031", "summer31"])
        counts = self.call("GET", "/v1/subscriptionOfferCodes/" + offer["id"], expect=200)[1]["data"]["attributes"]
        self.assertEqual((counts["totalNumberOfCodes"], counts["productionCodeCount"]), (520, 520))
        # unique in the app, whatever the case, across its offer codes; another app may use it
        second = self.offer_code(sub["id"], "Autumn")
        for code in ("SPRING2031", "spring2031", "Summer31"):
            self.assertError(self.custom(second["id"], code, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                             "/data/attributes/customCode")
        other = self.fake.control("POST", "apps", {"name": "Other", "bundleId": "com.example.other"})["id"]
        mine, self.app = self.app, other
        _, elsewhere = self.new_offer_code()
        self.custom(elsewhere["id"])
        self.app = mine
        # letters and digits, 1 to 64 of them
        for code in ("SPRING 31", "SPRING-31", "SPRING_31", "ÉTÉ31", "", "A" * 65):
            self.assertError(self.custom(second["id"], code, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                             "/data/attributes/customCode")
        self.custom(second["id"], "A" * 64, 1)
        self.assertError(self.custom(second["id"], "ZERO", 0, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/numberOfCodes")
        for expires in ("2031-02-28", "2031-09-02"):
            self.assertError(self.custom(second["id"], "LATE", 5, expires, expect=409),
                             "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/expirationDate")
        self.assertError(self.call("POST", CUSTOM_PATH, {"data": {
            "type": "subscriptionOfferCodeCustomCodes", "attributes": {"numberOfCodes": 5},
            "relationships": {"offerCode": self.linkage("subscriptionOfferCodes", second["id"])}}}, 409)[1],
            "ENTITY_ERROR.ATTRIBUTE.REQUIRED", "/data/attributes/customCode")
        # custom codes' redemptions count towards the quarter's 1,000,000 (521 so far)
        self.assertError(self.custom(second["id"], "HUGE", 999480, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/numberOfCodes")
        self.custom(second["id"], "HUGE", 999479)
        self.assertError(self.batch(second["id"], 1, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/numberOfCodes")
        # App Store Connect answers null for a custom code without an expiration date (above); the other reading
        # leaves it out
        self.assertIsNone(self.call("GET", "%s/%s" % (CUSTOM_PATH, made["id"]), expect=200)[1]
                          ["data"]["attributes"]["expirationDate"])
        self.fake.control("POST", "settings", {"explicitNulls": False})
        self.assertNotIn("expirationDate", self.call("GET", "%s/%s" % (CUSTOM_PATH, made["id"]), expect=200)[1]
                         ["data"]["attributes"])
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    # -- deactivating
    def test_deactivated_codes_stay_off(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        sub, offer = self.new_offer_code()
        first, second = self.batch(offer["id"])["data"], self.batch(offer["id"], 4, "2031-06-01")["data"]
        code = self.custom(offer["id"])["data"]
        for path, type_, rec in ((BATCH_PATH, "subscriptionOfferCodeOneTimeUseCodes", first),
                                 (CUSTOM_PATH, "subscriptionOfferCodeCustomCodes", code)):
            self.assertEqual(self.set_active(path, type_, rec["id"], None)["data"]["attributes"]["active"], True)
            self.assertEqual(self.set_active(path, type_, rec["id"], True)["data"]["attributes"]["active"], True)
            self.assertEqual(self.set_active(path, type_, rec["id"], False)["data"]["attributes"]["active"], False)
            self.assertEqual(self.set_active(path, type_, rec["id"], False)["data"]["attributes"]["active"], False)
            self.assertError(self.set_active(path, type_, rec["id"], True, 409), "STATE_ERROR",
                             "/data/attributes/active")
            self.assertError(self.set_active(path, type_, rec["id"], False, 409, body_id="other"),
                             "ENTITY_ERROR.ID.INVALID", "/data/id")
            self.set_active(path, type_, "nope", False, 404)
            self.assertError(self.call("PATCH", "%s/%s" % (path, rec["id"]), {"data": {
                "type": type_, "id": rec["id"], "attributes": {"numberOfCodes": 9}}}, 409)[1],
                "ENTITY_ERROR.ATTRIBUTE.UNKNOWN", "/data/attributes/numberOfCodes")
        self.assertEqual(self.call("GET", "%s/%s" % (BATCH_PATH, second["id"]), expect=200)[1]
                         ["data"]["attributes"]["active"], True)
        self.assertEqual(len(self.values(first["id"])[2].splitlines()), 3)  # a deactivated batch's codes still download
        # the offer code: off with every code it has, for good; it takes no new codes
        doc = self.set_active("/v1/subscriptionOfferCodes", "subscriptionOfferCodes", offer["id"], False)
        self.assertEqual(doc["data"]["attributes"]["active"], False)
        listed = self.call("GET", "/v1/subscriptions/%s/offerCodes?include=oneTimeUseCodes,customCodes"
                           "&limit[oneTimeUseCodes]=1" % sub["id"], expect=200)[1]
        rels = listed["data"][0]["relationships"]
        self.assertEqual(rels["oneTimeUseCodes"]["meta"]["paging"], {"total": 2, "limit": 1})
        self.assertEqual([x["id"] for x in rels["customCodes"]["data"]], [code["id"]])
        self.assertEqual(sorted((x["type"], x["attributes"]["active"]) for x in listed["included"]),
                         [("subscriptionOfferCodeCustomCodes", False), ("subscriptionOfferCodeOneTimeUseCodes", False)])
        self.assertEqual(self.call("GET", "%s/%s" % (BATCH_PATH, second["id"]), expect=200)[1]
                         ["data"]["attributes"]["active"], False)
        self.assertError(self.batch(offer["id"], 1, expect=409), "STATE_ERROR", "/data/relationships/offerCode")
        self.assertError(self.custom(offer["id"], "LATER", expect=409), "STATE_ERROR", "/data/relationships/offerCode")
        self.assertError(self.set_active("/v1/subscriptionOfferCodes", "subscriptionOfferCodes", offer["id"], True,
                                         409), "STATE_ERROR", "/data/attributes/active")
        self.assertError(self.set_active(BATCH_PATH, "subscriptionOfferCodeOneTimeUseCodes", second["id"], True, 409),
                         "STATE_ERROR", "/data/attributes/active")
        self.set_active("/v1/subscriptionOfferCodes", "subscriptionOfferCodes", offer["id"], False)
        self.set_active("/v1/subscriptionOfferCodes", "subscriptionOfferCodes", offer["id"], None)
        one = self.call("GET", "/v1/subscriptionOfferCodes/%s?include=subscription,oneTimeUseCodes,customCodes,prices"
                        "&limit[customCodes]=5" % offer["id"], expect=200)[1]
        self.assertEqual(one["data"]["attributes"]["active"], False)
        self.assertEqual(len(one["included"]), 5)  # the subscription, two batches, the custom code, the price
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    # -- the managed view
    def make_codes(self, order):
        """An offer code with two batches (one deactivated) and two custom codes, made in the given order."""
        _, offer = self.new_offer_code()
        made = {}
        steps = {"early": lambda: self.batch(offer["id"], 10, "2031-04-15"),
                 "late": lambda: self.batch(offer["id"], 20, "2031-08-01"),
                 "b": lambda: self.custom(offer["id"], "BETA31", 100),
                 "a": lambda: self.custom(offer["id"], "ALPHA31", 50, "2031-07-01")}
        for step in order:
            made[step] = steps[step]()["data"]
        self.set_active(BATCH_PATH, "subscriptionOfferCodeOneTimeUseCodes", made["late"]["id"], False)
        return offer, made

    def test_the_managed_view_shows_codes_but_never_their_values(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        offer, made = self.make_codes(["late", "b", "early", "a"])
        view = self.offer_code_view(self.app)
        self.assertEqual({k: view[k] for k in ("active", "oneTimeUseCodes", "customCodes")}, {
            "active": True,
            "oneTimeUseCodes": [{"numberOfCodes": 10, "expirationDate": "2031-04-15", "active": True,
                                 "environment": "PRODUCTION"},
                                {"numberOfCodes": 20, "expirationDate": "2031-08-01", "active": False,
                                 "environment": "PRODUCTION"}],
            "customCodes": [{"customCode": "ALPHA31", "numberOfCodes": 50, "expirationDate": "2031-07-01",
                             "active": True},
                            {"customCode": "BETA31", "numberOfCodes": 100, "expirationDate": None, "active": True}]})
        # the same codes made in another order, in another app, on another day of the quarter: the same view
        other = self.fake.control("POST", "apps", {"name": "Other", "bundleId": "com.example.other"})["id"]
        mine, self.app = self.app, other
        self.fake.control("POST", "settings", {"today": "2031-03-20"})
        self.make_codes(["a", "early", "b", "late"])
        self.assertEqual(self.offer_code_view(other), view)
        self.app = mine
        self.set_active("/v1/subscriptionOfferCodes", "subscriptionOfferCodes", offer["id"], False)
        deactivated = self.offer_code_view(self.app)
        self.assertEqual(deactivated["active"], False)
        self.assertEqual({c["active"] for c in deactivated["oneTimeUseCodes"] + deactivated["customCodes"]}, {False})
        self.assertNotEqual(self.offer_code_view(other), deactivated)
        # the values appear in the CSV only
        values = [v for key in ("early", "late") for v in self.values(made[key]["id"])[2].splitlines()]
        self.assertEqual(len(values), 30)
        answers = [self.fake.control("POST", "managed", {"appId": self.app}), self.fake.control("GET", "state"),
                   self.fake.control("GET", "requests")]
        for path in ("/v1/subscriptionOfferCodes/%s?include=oneTimeUseCodes,customCodes" % offer["id"],
                     "/v1/subscriptionOfferCodes/%s/oneTimeUseCodes" % offer["id"],
                     "%s/%s?include=offerCode" % (BATCH_PATH, made["early"]["id"])):
            answers.append(self.call("GET", path, expect=200)[1])
        text = json.dumps(answers)
        self.assertEqual([v for v in values if v in text], [])

    # -- generated codes
    def test_generated_codes_are_ones_a_push_makes_again(self):
        """Each generated offer code's codes hold App Store Connect's limits, and made again through the API in
        another app they show the same managed view."""
        self.fake.control("POST", "settings", ROUND_TRIP)
        self.assertEqual(ROUND_TRIP["today"], TODAY)
        seen = set()
        for seed in range(80):
            source = self.fake.control("POST", "apps", {"name": "S%d" % seed,
                                                        "bundleId": "com.example.s%d" % seed})["id"]
            used = self.fake.control("POST", "generate", {"appId": source, "seed": seed})
            classes = {c for cs in used["classes"].values() for c in cs if c in CODE_CLASSES}
            if not classes:
                continue
            seen |= classes
            view = self.fake.control("POST", "managed", {"appId": source})
            for group in view["subscriptionGroups"].values():
                for product_id, sub in group["subscriptions"].items():
                    for name, wanted in sub["offerCodes"].items():
                        self.assertEqual(self.made_again(name, wanted), {k: wanted[k] for k in (
                            "active", "oneTimeUseCodes", "customCodes")}, (seed, product_id))
        self.assertEqual(seen, set(CODE_CLASSES))
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def again_app(self):
        """A new app of its own to make something again in (it becomes `self.app`)."""
        self.agains = getattr(self, "agains", 0) + 1
        self.app = self.fake.control("POST", "apps", {"name": "Again",
                                                      "bundleId": "com.example.again%d" % self.agains})["id"]
        return self.app

    def made_again(self, name, wanted):
        """Makes an offer code's codes as a push would, in an app of its own: codes, what is off, then the offer."""
        self.again_app()
        _, offer = self.new_offer_code(name)
        self.make_codes_again(offer["id"], wanted)
        got = self.offer_code_view(self.app, name)
        return {k: got[k] for k in ("active", "oneTimeUseCodes", "customCodes")}

    def make_codes_again(self, offer_id, wanted, owner="subscription"):
        """The codes of an offer code's managed view made through the API, then the offer turned off if it is."""
        if not wanted["active"]:  # an offer code off has every code off
            self.assertEqual([c for c in wanted["oneTimeUseCodes"] + wanted["customCodes"] if c["active"]], [])
        for batch in wanted["oneTimeUseCodes"]:
            self.assertGreater(batch["expirationDate"], TODAY)
            made = self.batch(offer_id, batch["numberOfCodes"], batch["expirationDate"], batch["environment"],
                              owner=owner)["data"]
            if not batch["active"] and wanted["active"]:
                self.set_active("/v1/%sOfferCodeOneTimeUseCodes" % owner, made["type"], made["id"], False)
        for code in wanted["customCodes"]:
            made = self.custom(offer_id, code["customCode"], code["numberOfCodes"], code["expirationDate"],
                               owner=owner)["data"]
            if not code["active"] and wanted["active"]:
                self.set_active("/v1/%sOfferCodeCustomCodes" % owner, made["type"], made["id"], False)
        if not wanted["active"]:
            self.set_active("/v1/%sOfferCodes" % owner, owner + "OfferCodes", offer_id, False)
