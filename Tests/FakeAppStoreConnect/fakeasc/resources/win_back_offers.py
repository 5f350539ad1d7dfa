"""Win-back offers' customer eligibility, schedule, priority and promotion: the limits of App Store Connect's
win-back setup (README, "Win-back offers"), checked on create and on the PATCH that changes them. The offers
themselves are created with the other priced offers (offers.py)."""

import datetime

from ..core.errors import entity_error

PAID = "customerEligibilityPaidSubscriptionDurationInMonths"
LAPSED = "customerEligibilityTimeSinceLastSubscribedInMonths"
WAIT = "customerEligibilityWaitBetweenOffersInMonths"
MAX_MONTHS = 24
# Apple's API reference: paid duration 1 to 24 months or 3, 4 or 5 years; wait between offers 2 to 24 months; an offer
# runs at least 3 days.
PAID_MONTHS = set(range(1, MAX_MONTHS + 1)) | {36, 48, 60}
MIN_WAIT = 2
MIN_DAYS = 3
# Null in a PATCH empties these two (an offer may have neither); for the others it changes nothing.
CLEARABLE = (WAIT, "endDate")


def invalid(detail, name, base="/data"):
    return entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", detail, "%s/attributes/%s" % (base, name))


def day(text, name):
    try:
        return datetime.date.fromisoformat(text).isoformat()
    except (TypeError, ValueError):
        raise invalid("%s must be a date (YYYY-MM-DD)" % name, name)


class WinBackOffers:
    def win_back_create_attributes(self, a):
        """The attributes of a new offer, checked: an offer without a promotion intent is not promoted."""
        attrs = dict(a, promotionIntent=a.get("promotionIntent") or "NOT_PROMOTED")
        attrs.setdefault(WAIT, None)
        attrs.setdefault("endDate", None)
        self.check_win_back(attrs, start_changed=True, end_changed=attrs["endDate"] is not None)
        return attrs

    def check_win_back(self, a, start_changed, end_changed):
        """Eligibility and schedule of an offer's attributes as they will be. A start date that is set must not be
        before today, an end date not before today; `*_changed` say which the request sets."""
        if a[PAID] not in PAID_MONTHS:
            raise invalid("The paid subscription duration is 1 to 24 months, 36, 48 or 60", PAID)
        lapsed = a[LAPSED] or {}
        if lapsed.get("minimum") is None or lapsed.get("maximum") is None:
            raise invalid("The time since the last subscription needs a minimum and a maximum", LAPSED)
        if lapsed["minimum"] < 1:
            raise invalid("The time since the last subscription is at least 1 month", LAPSED)
        if lapsed["maximum"] > MAX_MONTHS:
            raise invalid("The time since the last subscription is at most %d months" % MAX_MONTHS, LAPSED)
        if lapsed["minimum"] > lapsed["maximum"]:
            raise invalid("The minimum time since the last subscription is above the maximum", LAPSED)
        wait = a.get(WAIT)
        if wait is not None and not MIN_WAIT <= wait <= MAX_MONTHS:
            raise invalid("The wait between offers is %d to %d months" % (MIN_WAIT, MAX_MONTHS), WAIT)
        today = self.today()
        start = day(a["startDate"], "startDate")
        if start_changed and start < today:
            raise invalid("startDate %s is before today (%s)" % (start, today), "startDate")
        end = a.get("endDate")
        if end is not None:
            end = day(end, "endDate")
            if end <= start:
                raise invalid("endDate %s is not after startDate %s" % (end, start), "endDate")
            length = (datetime.date.fromisoformat(end) - datetime.date.fromisoformat(start)).days + 1
            if length < MIN_DAYS:  # both days counted (README)
                raise invalid("An offer runs at least %d days (%s to %s is %d)" % (MIN_DAYS, start, end, length),
                              "endDate")
            if end_changed and end < today:
                raise invalid("endDate %s is before today (%s)" % (end, today), "endDate")

    def update_win_back_offer(self, c):
        """Changes eligibility, dates, priority and promotion intent; a start date that has passed stays."""
        self.check_update_id(c)
        rec = self.store.need("winBackOffers", c.id)
        old = rec["attributes"]
        changes = {k: v for k, v in (c.body["data"].get("attributes") or {}).items()
                   if v is not None or k in CLEARABLE}
        start = changes.get("startDate")
        start_changed = start is not None and start != old.get("startDate")
        if start_changed and old.get("startDate") and old["startDate"] <= self.today():
            raise invalid("The offer started on %s; its start date can't be changed" % old["startDate"], "startDate")
        merged = dict(old, **changes)
        self.check_win_back(merged, start_changed,
                            "endDate" in changes and changes["endDate"] != old.get("endDate"))
        old.update(changes)
        return self.updated(rec, c)
