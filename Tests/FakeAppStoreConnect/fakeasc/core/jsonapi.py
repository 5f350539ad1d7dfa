"""JSON:API documents as App Store Connect writes them: resources with `links.self`, collections with
`links.next` cursors and `meta.paging`, `included` for `include=`, and the attribute filters lists share."""

import json
import re
import urllib.parse

from .encoding import b64url, b64url_decode
from .errors import parameter_error
from ..model import (FORMED_TYPES, INCLUDED_DEFAULT_LIMIT, RELATIONSHIPS, RENDERED_KIDS, STORED_MANY, STORED_ONE, TYPE_PATH,
                     UNSHOWN_RELATIONSHIPS)
from ..reference import decode_price_point, point_rec, ref

PRICE_POINT_TYPES = ("inAppPurchasePricePoints", "subscriptionPricePoints")


def include_spec(q):
    """`include=a,b` with `limit[a]=N` as {name: linkage limit}, in the order asked (limits already validated)."""
    spec = {}
    for name in q.get("include", "").split(","):
        if name and name not in spec:
            limit = q.get("limit[%s]" % name, "")
            spec[name] = int(limit) if limit.isdigit() else INCLUDED_DEFAULT_LIMIT
    return spec


# Prices, which the `pricesWithoutRelationships` setting answers without relationships.
PRICE_TYPES = ("inAppPurchasePrices", "subscriptionPrices")


class Text:
    """An answer that is not a JSON document (the one-time codes' CSV): its text and media type."""
    __slots__ = ("body", "content_type")

    def __init__(self, body, content_type):
        self.body, self.content_type = body, content_type


class Documents:
    """Mixin of the service: needs `self.store`, `self.settings` and `self.base_url`."""

    def render(self, rec, include=None, sink=None, linkage="asked"):
        """A resource object, with linkage as App Store Connect sends it: only for the relationships named in
        `include` ({name: limit}) — to-many ones at most `limit` of them, with `meta.paging` {total, limit} so a
        client can tell the list was cut; empty to-one ones `"data": null` — whose records are added to `sink` (for
        the top-level included). Every other relationship has `links` only. `linkage="none"` renders a resource of
        `included`, whose relationships carry no linkage at all (`{}` for a stored to-one link, as recorded);
        `linkage="all"` (the control API's state, never an API answer) shows every stored linkage."""
        out = {"type": rec["type"], "id": rec["id"]}
        explicit = self.settings.get("explicitNulls")
        attrs = {k: v for k, v in rec.get("attributes", {}).items() if v is not None or explicit}
        if "_shown" in rec:
            attrs["assetDeliveryState"] = rec["_shown"]
        if self.settings.get("unknownAttributes") and rec["type"] != "territories":
            attrs["attributeNewerThanTheDocument"] = {"since": "a later API version"}
        if rec.get("_legacy"):  # an in-app purchase made before 2023: the retired attribute, no availability
            attrs["availableInAllTerritories"] = True
        if attrs or rec["type"] != "territories":
            out["attributes"] = attrs
        include = include or {}
        rels = {}
        stored = rec.get("rels", {})
        names = self.relationship_names(rec)
        for name in names:
            if name in include:
                continue
            if linkage == "all" and name in stored:
                rels[name] = {"data": stored[name]["data"]}
            elif linkage == "all" and name in RENDERED_KIDS.get(rec["type"], []):
                ids = self.store.kid_ids(rec, name)
                first = self.store.find(ids[0]) if ids else None
                rels[name] = {"data": [ref(first["type"], i) for i in ids] if first else []}
            elif linkage == "none" and name in stored and not isinstance(stored[name]["data"], list):
                rels[name] = {}
            else:
                rels[name] = self.relationship_links(rec, name)
        links_only = self.settings.get("linksOnly") or []
        for name, limit in include.items():
            if name not in names:
                continue  # a relationship it doesn't show, even when asked for (a legacy purchase's availability)
            if name in links_only:
                rels[name] = self.relationship_links(rec, name)  # asked for, answered with links only
                continue
            rel, recs = self.related_records(rec, name)
            if rel is None:
                continue  # a relationship this type doesn't have (the contract refuses undocumented includes)
            shown = recs[:limit] if rel.many else recs[:1]
            linkages = [ref(r["type"], r["id"]) for r in shown]
            if rel.many:
                rels[name] = {"data": linkages, "meta": {"paging": {"total": len(recs), "limit": limit}},
                              "links": self.relationship_links(rec, name)["links"]}
            else:
                rels[name] = {"data": linkages[0] if linkages else None, "links": self.relationship_links(rec, name)["links"]}
            if sink is not None:
                for r in shown:
                    sink.setdefault((r["type"], r["id"]), r)
        if rec["type"] in PRICE_TYPES and self.settings.get("pricesWithoutRelationships"):
            rels = {}  # a price as a list pasted from the API shows it: no relationships at all
        if rec["type"] in PRICE_POINT_TYPES and linkage == "none" and self.settings.get("emptyPointTerritory"):
            rels["territory"] = {}
        if rels:
            out["relationships"] = rels
        out["links"] = {"self": self.base_url + TYPE_PATH[rec["type"]] + "/" + rec["id"]}
        if rec["type"] in FORMED_TYPES:  # promotional images: the v1 or v2 form, by the operation
            return self.shape_image(rec, out)
        return out

    def relationship_names(self, rec):
        """The relationships a resource shows: those of its type, and any linkage stored on it. An in-app purchase
        made before 2023 shows no availability relationship at all, as recorded answers show."""
        names = list(RELATIONSHIPS.get(rec["type"], {}))
        names += [n for n in rec.get("rels", {}) if n not in names]
        names = [n for n in names if n not in UNSHOWN_RELATIONSHIPS.get(rec["type"], ())]
        if rec.get("_legacy"):
            names = [n for n in names if n != "inAppPurchaseAvailability"]
        return names

    def relationship_links(self, rec, name):
        own = self.base_url + TYPE_PATH[rec["type"]] + "/" + rec["id"]
        return {"links": {"self": own + "/relationships/" + name, "related": own + "/" + name}}

    def related_records(self, rec, name):
        """(Rel, records) of one relationship of `rec`, or (None, []) when the type has no such relationship."""
        rel = RELATIONSHIPS.get(rec["type"], {}).get(name)
        stored = rec.get("rels", {}).get(name)
        if rel is None:
            if stored is None:
                return None, []
            rel = STORED_MANY if isinstance(stored["data"], list) else STORED_ONE
        kind = rel.source[0]
        if kind == "rel":
            d = stored["data"] if stored else None
            return rel, self.linked_records(d if isinstance(d, list) else [d] if d else [])
        if kind == "kids":
            return rel, self.store.kid_recs(rec, rel.source[1])
        if kind == "slot":
            child = self.store.slot(rec, rel.source[1])
            return rel, [child] if child else []
        if kind == "parent":
            parent = self.store.parent(rec)
            return rel, [parent] if parent else []
        if kind == "lookup":
            found = getattr(self, rel.source[1])(rec)
            return rel, [found] if found else []
        if kind == "latest":
            versions = self.store.kid_recs(rec, "versions")
            return rel, self.store.kid_recs(versions[-1], rel.source[1]) if versions else []
        return rel, []  # modelled as always empty

    def linked_records(self, refs):
        out = []
        for r in refs:
            if r["type"] in PRICE_POINT_TYPES:  # price points are built on demand, never stored
                d = decode_price_point(r["id"])
                if d:
                    out.append(point_rec(r["type"], d["s"], d["t"], int(d["p"])))
            else:
                x = self.store.get(r["type"], r["id"])
                if x is not None:
                    out.append(x)
        return out

    def included(self, sink):
        return [self.render(r, linkage="none") for r in sink.values()]

    def page(self, items, q, path):
        limit = int(q["limit"]) if "limit" in q else self.settings["pageSize"]
        # App Store Connect may answer with fewer items than asked for; clients must follow links.next.
        page_size = min(limit, self.settings["maxPageSize"] or limit)
        offset = 0
        if "cursor" in q:
            try:
                offset = int(json.loads(b64url_decode(q["cursor"]))["o"])
            except Exception:
                raise parameter_error("'cursor' is not a valid cursor", "cursor")
        chunk = items[offset:offset + page_size]
        spec, sink = include_spec(q), {}
        data = [self.render(r, spec, sink) for r in chunk]
        query = urllib.parse.urlencode(q, safe="[],")
        doc = {"data": data, "links": {"self": self.base_url + path + ("?" + query if query else "")},
               "meta": {"paging": {"total": len(items), "limit": limit}}}
        if offset + page_size < len(items):
            nq = dict(q)
            nq["cursor"] = b64url(json.dumps({"o": offset + page_size}).encode())
            doc["links"]["next"] = self.base_url + path + "?" + urllib.parse.urlencode(nq, safe="[],")
        if sink:
            doc["included"] = self.included(sink)
        return doc

    def single(self, rec, q, path):
        sink = {}
        doc = {"data": self.render(rec, include_spec(q), sink), "links": {"self": self.base_url + path}}
        if sink:
            doc["included"] = self.included(sink)
        return doc

    def empty_to_one(self, path):
        """An empty to-one relationship read through its own endpoint, as JSON:API answers it."""
        return {"data": None, "links": {"self": self.base_url + path}}

    def created(self, rec, c):
        return 201, {"data": self.render(rec), "links": {"self": self.base_url + TYPE_PATH[rec["type"]] + "/" + rec["id"]}}

    def updated(self, rec, c):
        return 200, {"data": self.render(rec), "links": {"self": self.base_url + c.path}}

    # -- filters shared by lists
    def filtered(self, recs, q):
        for name, value in q.items():
            m = re.match(r"^filter\[(\w+)\]$", name)
            if not m:
                continue
            field, wanted = m.group(1), set(value.split(","))
            if field == "territory":
                recs = [r for r in recs if self.territory_of(r) in wanted]
            elif field == "planType":
                recs = [r for r in recs if (r.get("attributes", {}).get("planType") or "UPFRONT") in wanted]
            elif field == "subscriptionPricePoint":
                recs = [r for r in recs if r["rels"].get("subscriptionPricePoint", {}).get("data", {}).get("id") in wanted]
            elif field == "id":
                recs = [r for r in recs if r["id"] in wanted]
            else:
                recs = [r for r in recs if str(r.get("attributes", {}).get(field)) in wanted]
        return recs

    @staticmethod
    def territory_of(rec):
        t = rec.get("rels", {}).get("territory", {}).get("data")
        return t["id"] if t else None
