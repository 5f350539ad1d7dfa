"""The app's own settings as the generator leaves them: its Billing Grace Period, its promoted purchases and its App
Store versions."""

from ..resources.app_store_versions import EDITABLE_APP_VERSION_STATES
from ..resources.grace_periods import GRACE_DEFAULTS, GRACE_DURATIONS, GRACE_RENEWAL_TYPES
from ..resources.promoted_purchases import MAX_PROMOTED


class GeneratingApp:
    """Mixin of the service: the app's own settings of a generated state."""

    def generate_grace_period(self, app, rnd, app_classes):
        kind = rnd.choice(["off-default", "on", "sandbox-only", "off-changed"])
        app_classes.append("grace:" + kind)
        a = self.grace_period(app)["attributes"]
        a.update(GRACE_DEFAULTS)  # an app generated into before starts again from the defaults
        if kind == "on":
            a.update(optIn=True, sandboxOptIn=rnd.random() < 0.5, duration=rnd.choice(GRACE_DURATIONS),
                     renewalType=rnd.choice(GRACE_RENEWAL_TYPES))
        elif kind == "sandbox-only":
            a.update(sandboxOptIn=True, duration=rnd.choice(GRACE_DURATIONS), renewalType=rnd.choice(GRACE_RENEWAL_TYPES))
        elif kind == "off-changed":
            # Turned off again, or set up and never turned on: the settings stay.
            a.update(duration=rnd.choice([d for d in GRACE_DURATIONS if d != GRACE_DEFAULTS["duration"]]),
                     renewalType=rnd.choice(GRACE_RENEWAL_TYPES))

    def generate_promoted(self, app, rnd, classes, app_classes):
        """Promotes some of the products just built (in-app purchases and subscriptions alike), each shown or
        hidden, enabled or not; in some apps the order was changed after they were added."""
        if rnd.random() < 0.3:
            return
        by_pid = {p["attributes"]["productId"]: p for p in self.products_of(app)}
        candidates = [pid for pid in classes if self.promoted_purchase_of(by_pid[pid]) is None]
        room = MAX_PROMOTED - len(self.promoted_purchases(app))
        made = []
        for pid in rnd.sample(candidates, min(len(candidates), room, rnd.randint(1, 4))):
            visible, enabled = rnd.random() < 0.7, rnd.random() < 0.75
            classes[pid] += ["promoted:visible" if visible else "promoted:hidden"] + ([] if enabled else
                                                                                      ["promoted:disabled"])
            made.append(self.new_promoted_purchase(app, by_pid[pid], visible, enabled)["id"])
        if len(made) >= 2 and rnd.random() < 0.5:
            app_classes.append("promoted:reordered")
            order = list(made)
            while order == made:
                rnd.shuffle(order)
            earlier = [r["id"] for r in self.promoted_purchases(app) if r["id"] not in made]
            self.store.set_kid_order(app, "promotedPurchases", earlier + order)

    def generate_app_versions(self, app, rnd, app_classes):
        """None yet, a live one, or one being prepared (after a live one, or the first); the class says what the app
        holds, versions of an app generated into before included."""
        kind = rnd.choice(["none", "live", "editable", "editable"])
        if kind == "live" or (kind == "editable" and rnd.random() < 0.5):
            self.new_app_store_version(app, "IOS", "1.0", "READY_FOR_DISTRIBUTION")
        if kind == "editable":
            live = any(v["attributes"]["appVersionState"] == "READY_FOR_DISTRIBUTION" for v in self.app_store_versions(app))
            self.new_app_store_version(app, "IOS", "1.1" if live else "1.0", rnd.choice(EDITABLE_APP_VERSION_STATES))
        states = [v["attributes"]["appVersionState"] for v in self.app_store_versions(app)]
        app_classes.append("app-version:editable" if set(states) & set(EDITABLE_APP_VERSION_STATES) else
                           "app-version:live" if states else "app-version:none")
