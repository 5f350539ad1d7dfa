"""All resources, by type and id. Records are plain JSON so the state can be dumped to a file and reloaded.

A record is `{"type", "id", "attributes", "rels": {name: {"data": linkage}}, "parent": [type, id, name]}`.
Children live in ordered lists (`kids`, e.g. an app's in-app purchases) or single slots (`slots`, e.g. a
product's availability); removing a record removes its children with it.
"""

import uuid

from .errors import not_found
from ..territories import CODES as TERRITORY_CODES, CURRENCY


class Store:
    def __init__(self):
        self.res = {}
        self.kids = {}        # "type/id/name" -> [child ids]
        self.slots = {}       # "type/id/name" -> child id (to-one children: availability, schedule, screenshot)
        self.used_product_ids = {}  # app id -> product ids ever used (never reusable)
        self.uploads = {}     # token -> {"type", "id", "parts": [{offset, length, data(b64)|None}]}
        self.seq = 0
        # "type/id" -> names of its child lists and slots, in the order they were made: a removal finds its children without a scan of every key
        # (the round trip's thousands of apps made each removal, and so each push, slower than the last).
        self.kid_names, self.slot_names = {}, {}
        for code in TERRITORY_CODES:
            self.put({"type": "territories", "id": code, "attributes": {"currency": CURRENCY[code]}, "rels": {}})

    def to_json(self):
        return {"res": self.res, "kids": self.kids, "slots": self.slots, "seq": self.seq,
                "usedProductIds": {k: sorted(v) for k, v in self.used_product_ids.items()}}

    @classmethod
    def from_json(cls, doc):
        s = cls()
        s.res, s.kids, s.slots, s.seq = doc["res"], doc["kids"], doc["slots"], doc["seq"]
        s.used_product_ids = {k: set(v) for k, v in doc["usedProductIds"].items()}
        for names, keys in ((s.kid_names, s.kids), (s.slot_names, s.slots)):
            for key in keys:
                owner, name = key.rsplit("/", 1)
                names.setdefault(owner, {})[name] = None
        return s

    def new_id(self, numeric):
        """Numeric ids like Apple's products and groups, UUID-shaped ids for everything else."""
        self.seq += 1
        if numeric:
            return str(6400000000 + self.seq)
        return str(uuid.UUID(int=(0x5A5C << 112) | self.seq))

    def put(self, rec):
        rec.setdefault("rels", {})
        self.res.setdefault(rec["type"], {})[rec["id"]] = rec
        return rec

    def get(self, type_, id_):
        return self.res.get(type_, {}).get(id_)

    def find(self, id_):
        """A record by id alone (ids are unique across types)."""
        for t in self.res:
            r = self.get(t, id_)
            if r is not None:
                return r
        return None

    def need(self, type_, id_, pointer=None):
        rec = self.get(type_, id_)
        if rec is None:
            raise not_found("There is no resource of type '%s' with id '%s'" % (type_, id_), pointer)
        return rec

    def kid_ids(self, rec, name):
        return self.kids.get("%s/%s/%s" % (rec["type"], rec["id"], name), [])

    def kid_recs(self, rec, name, type_=None):
        out = []
        for cid in self.kid_ids(rec, name):
            for t in ([type_] if type_ else self.res):
                c = self.get(t, cid)
                if c is not None:
                    out.append(c)
                    break
        return out

    def add_kid(self, parent, name, rec):
        rec["parent"] = [parent["type"], parent["id"], name]
        self.kids.setdefault("%s/%s/%s" % (parent["type"], parent["id"], name), []).append(rec["id"])
        self.kid_names.setdefault("%s/%s" % (parent["type"], parent["id"]), {})[name] = None
        return self.put(rec)

    def set_kid_order(self, parent, name, ids):
        """Reorders a child list; `ids` holds the same children."""
        key = "%s/%s/%s" % (parent["type"], parent["id"], name)
        assert sorted(ids) == sorted(self.kids.get(key, [])), "a reorder keeps the same children"
        self.kids[key] = list(ids)

    def slot(self, parent, name):
        cid = self.slots.get("%s/%s/%s" % (parent["type"], parent["id"], name))
        if cid is None:
            return None
        for t in self.res:
            c = self.get(t, cid)
            if c is not None and c.get("parent", [None, None, None])[2] == name:
                return c
        return None

    def set_slot(self, parent, name, rec):
        old = self.slot(parent, name)
        if old is not None:
            self.remove(old)
        rec["parent"] = [parent["type"], parent["id"], name]
        self.slots["%s/%s/%s" % (parent["type"], parent["id"], name)] = rec["id"]
        self.slot_names.setdefault("%s/%s" % (parent["type"], parent["id"]), {})[name] = None
        return self.put(rec)

    def parent(self, rec):
        p = rec.get("parent")
        return self.get(p[0], p[1]) if p else None

    def remove(self, rec):
        """Deletes a record, its children, and its place in its parent."""
        owner = "%s/%s" % (rec["type"], rec["id"])
        for name in list(self.kid_names.pop(owner, {})):
            for child in self.kid_recs(rec, name):
                self.remove(child)
            self.kids.pop(owner + "/" + name, None)
        for name in list(self.slot_names.pop(owner, {})):
            child = self.slot(rec, name)
            if child is not None:
                self.remove(child)
            self.slots.pop(owner + "/" + name, None)
        p = rec.get("parent")
        if p:
            key = "%s/%s/%s" % (p[0], p[1], p[2])
            if key in self.kids and rec["id"] in self.kids[key]:
                self.kids[key].remove(rec["id"])
            if self.slots.get(key) == rec["id"]:
                del self.slots[key]
        self.res.get(rec["type"], {}).pop(rec["id"], None)
        for token in [t for t, u in self.uploads.items() if u["id"] == rec["id"]]:
            del self.uploads[token]

    def app_of(self, rec):
        while rec is not None and rec["type"] != "apps":
            rec = self.parent(rec)
        return rec
