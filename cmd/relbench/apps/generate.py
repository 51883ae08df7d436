#!/usr/bin/env python3
"""Builds four more of relbench's application databases: the schemas of
widely deployed applications, in naming conventions the other sets lack,
none of which declares a foreign key (primary and unique keys are declared
as each application declares them), filled with invented data (Python's
standard library only, a fixed seed).

- mediawiki: MediaWiki 1.40's core tables. Every column carries its table's
  abbreviation (page_, rev_, cl_, pl_, tl_, lt_, log_, rc_, ar_, wl_, ug_,
  ipb_), a reference the abbreviation and its target (rev_page, cl_from,
  log_page, rc_cur_id -> page.page_id; rev_actor -> actor.actor_id;
  rev_comment_id -> comment.comment_id; page_latest, rev_parent_id,
  rc_this_oldid -> revision.rev_id; ug_user, wl_user, actor_user ->
  user.user_id; tl_target_id -> linktarget.lt_id). 0 is none in
  rev_parent_id, log_page, rc_cur_id, rc_this_oldid, rc_last_oldid, rc_logid
  and ipb_user (an IP's block); an IP editor's actor_user is NULL. Not in the
  truth: links by namespace and title (pagelinks, categorylinks, watchlist:
  red links have no page), slots' slot_revision_id and slot_origin (a
  revision or an archived one), archive's ar_rev_id, ar_page_id and
  ar_parent_id (rows that were deleted).
- moodle: Moodle 4's tables: mdl_ before every name, id keys, references
  glued lowercase (userid, courseid, enrolid, roleid, contextid, itemid,
  modifierid, usermodified, privatereplyto, mnethostid) or named by their
  target alone (course, category, discussion, forum, module, section,
  parent, firstpost). 0 is none in the parents, the front page's category,
  the guest enrolment's roleid, modifierid, privatereplyto and the log's
  userid and courseid. Not in the truth: context.instanceid,
  course_modules.instance, grade_items.iteminstance and the log's objectid
  (a row of one of several tables), forum_discussions.groupid (-1 for all).
- sap: a sales-and-distribution extract in SAP's German abbreviations (KNA1
  customers, MARA/MAKT materials, VBAK/VBAP orders, LIKP/LIPS deliveries,
  VBRK/VBRP billing; check tables T001, T001W, T005, TVKO, TVAK). Keys are
  CHAR with leading zeros (KUNNR '0000100001', POSNR '000010'), the client
  MANDT (always '100') leads every primary key, and every reference is
  composite with MANDT as the data dictionary defines it: VBAP(MANDT,
  VBELN) -> VBAK, LIPS(MANDT, VGBEL, VGPOS) -> VBAP(MANDT, VBELN, POSNR).
  Sales organisations, plants and company codes share values ('1000').
- rails: a Ruby on Rails application: plural snake_case tables, id keys,
  <singular>_id references, irregular plurals (person_id -> people,
  status_id -> statuses, category_id -> categories), roles (owner_id,
  author_id, assignee_id -> users, parent_id), unique indexes,
  created_at/updated_at, schema_migrations, Active Storage. Polymorphic
  references (commentable, taggable, tagger, an attachment's record) are
  not in the truth: each names a row of several tables.

Each carries what real data has: NULL in optional references, 0 for none
where the application writes 0, sibling tables whose keys overlap, small
status and flag integers, counters named like keys (issues_count,
user_editcount, coursecount, ANZPK).

The truth is each application's documented relations, checked against the
data as shared/'s FK_CHECK.tsv is (a composite's columns comma-separated; a
row counts when none of its columns is NULL), with one difference: where
the application writes 0 for "none", rows holding 0 count as NULL.

    python3 cmd/relbench/apps/generate.py OUT_DIR
    go run ./cmd/relbench -datasets OUT_DIR -v
"""
import hashlib
import os
import random
import sqlite3
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import appsets  # noqa: E402 (relbench's shared check and writer)

T0 = 1_577_836_800  # 2020-01-01, seconds
NOW = T0 + 4 * 365 * 86400
WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore "
         "magna aliqua river castle garden engine theory history music station bridge harbour").split()


def put(c, table, **row):
    """Inserts one row by column name (the others take their defaults) and returns its rowid."""
    cols = ", ".join(f'"{k}"' for k in row)
    return c.execute(f'INSERT INTO "{table}" ({cols}) VALUES ({", ".join("?" * len(row))})', tuple(row.values())).lastrowid


def stamp(t, fmt="%Y%m%d%H%M%S"):
    return time.strftime(fmt, time.gmtime(t))


def mediawiki(path):
    rnd = random.Random(13)
    c = sqlite3.connect(path)
    Z, E = "INTEGER NOT NULL DEFAULT 0", "TEXT NOT NULL DEFAULT ''"
    c.executescript(f"""
    CREATE TABLE user (user_id INTEGER PRIMARY KEY, user_name {E}, user_real_name {E}, user_password {E}, user_email {E}, user_touched TEXT NOT NULL,
        user_token {E}, user_email_authenticated TEXT, user_registration TEXT, user_editcount INTEGER);
    CREATE UNIQUE INDEX user_name ON user (user_name);
    CREATE TABLE user_groups (ug_user {Z}, ug_group {E}, ug_expiry TEXT, PRIMARY KEY (ug_user, ug_group));
    CREATE TABLE actor (actor_id INTEGER PRIMARY KEY, actor_user INTEGER, actor_name TEXT NOT NULL);
    CREATE UNIQUE INDEX actor_user ON actor (actor_user);
    CREATE UNIQUE INDEX actor_name ON actor (actor_name);
    CREATE TABLE comment (comment_id INTEGER PRIMARY KEY, comment_hash INTEGER NOT NULL, comment_text BLOB NOT NULL, comment_data BLOB);
    CREATE TABLE page (page_id INTEGER PRIMARY KEY, page_namespace INTEGER NOT NULL, page_title TEXT NOT NULL, page_is_redirect {Z}, page_is_new {Z},
        page_random REAL NOT NULL, page_touched TEXT NOT NULL, page_links_updated TEXT, page_latest INTEGER NOT NULL, page_len INTEGER NOT NULL,
        page_content_model TEXT, page_lang TEXT);
    CREATE UNIQUE INDEX page_name_title ON page (page_namespace, page_title);
    CREATE TABLE revision (rev_id INTEGER PRIMARY KEY, rev_page INTEGER NOT NULL, rev_comment_id {Z}, rev_actor {Z}, rev_timestamp TEXT NOT NULL,
        rev_minor_edit {Z}, rev_deleted {Z}, rev_len INTEGER, rev_parent_id INTEGER, rev_sha1 {E});
    CREATE TABLE slot_roles (role_id INTEGER PRIMARY KEY, role_name TEXT NOT NULL);
    CREATE UNIQUE INDEX role_name ON slot_roles (role_name);
    CREATE TABLE content_models (model_id INTEGER PRIMARY KEY, model_name TEXT NOT NULL);
    CREATE UNIQUE INDEX model_name ON content_models (model_name);
    CREATE TABLE content (content_id INTEGER PRIMARY KEY, content_size INTEGER NOT NULL, content_sha1 TEXT NOT NULL, content_model INTEGER NOT NULL,
        content_address TEXT NOT NULL);
    CREATE TABLE slots (slot_revision_id INTEGER NOT NULL, slot_role_id INTEGER NOT NULL, slot_content_id INTEGER NOT NULL,
        slot_origin INTEGER NOT NULL, PRIMARY KEY (slot_revision_id, slot_role_id));
    CREATE TABLE text (old_id INTEGER PRIMARY KEY, old_text BLOB NOT NULL, old_flags BLOB NOT NULL);
    CREATE TABLE categorylinks (cl_from {Z}, cl_to {E}, cl_sortkey {E}, cl_timestamp TEXT NOT NULL, cl_collation {E},
        cl_type TEXT NOT NULL DEFAULT 'page', PRIMARY KEY (cl_from, cl_to));
    CREATE TABLE pagelinks (pl_from {Z}, pl_namespace {Z}, pl_title {E}, pl_from_namespace {Z}, PRIMARY KEY (pl_from, pl_namespace, pl_title));
    CREATE TABLE linktarget (lt_id INTEGER PRIMARY KEY, lt_namespace INTEGER NOT NULL, lt_title TEXT NOT NULL);
    CREATE UNIQUE INDEX lt_namespace_title ON linktarget (lt_namespace, lt_title);
    CREATE TABLE templatelinks (tl_from {Z}, tl_target_id INTEGER NOT NULL, tl_from_namespace {Z}, PRIMARY KEY (tl_from, tl_target_id));
    CREATE TABLE logging (log_id INTEGER PRIMARY KEY, log_type {E}, log_action {E}, log_timestamp TEXT NOT NULL DEFAULT '19700101000000',
        log_actor INTEGER NOT NULL, log_namespace {Z}, log_title {E}, log_page INTEGER, log_comment_id INTEGER NOT NULL, log_params BLOB NOT NULL,
        log_deleted {Z});
    CREATE TABLE recentchanges (rc_id INTEGER PRIMARY KEY, rc_timestamp TEXT NOT NULL, rc_actor INTEGER NOT NULL, rc_namespace {Z}, rc_title {E},
        rc_comment_id INTEGER NOT NULL, rc_minor {Z}, rc_bot {Z}, rc_new {Z}, rc_cur_id {Z}, rc_this_oldid {Z}, rc_last_oldid {Z}, rc_type {Z},
        rc_source {E}, rc_patrolled {Z}, rc_ip {E}, rc_old_len INTEGER, rc_new_len INTEGER, rc_deleted {Z}, rc_logid {Z}, rc_log_type TEXT,
        rc_log_action TEXT, rc_params BLOB);
    CREATE TABLE archive (ar_id INTEGER PRIMARY KEY, ar_namespace {Z}, ar_title {E}, ar_comment_id INTEGER NOT NULL, ar_actor INTEGER NOT NULL,
        ar_timestamp TEXT NOT NULL, ar_minor_edit {Z}, ar_rev_id INTEGER NOT NULL, ar_deleted {Z}, ar_len INTEGER, ar_page_id INTEGER,
        ar_parent_id INTEGER, ar_sha1 {E});
    CREATE UNIQUE INDEX ar_revid_uniq ON archive (ar_rev_id);
    CREATE TABLE watchlist (wl_id INTEGER PRIMARY KEY, wl_user INTEGER NOT NULL, wl_namespace {Z}, wl_title {E}, wl_notificationtimestamp TEXT);
    CREATE UNIQUE INDEX wl_user ON watchlist (wl_user, wl_namespace, wl_title);
    CREATE TABLE ipblocks (ipb_id INTEGER PRIMARY KEY, ipb_address TEXT NOT NULL, ipb_user {Z}, ipb_by_actor INTEGER NOT NULL,
        ipb_reason_id INTEGER NOT NULL, ipb_timestamp TEXT NOT NULL, ipb_auto {Z}, ipb_anon_only {Z}, ipb_create_account INTEGER NOT NULL DEFAULT 1,
        ipb_expiry TEXT NOT NULL, ipb_range_start TEXT NOT NULL, ipb_range_end TEXT NOT NULL, ipb_deleted {Z}, ipb_parent_block_id INTEGER,
        ipb_sitewide INTEGER NOT NULL DEFAULT 1);
    CREATE UNIQUE INDEX ipb_address_unique ON ipblocks (ipb_address, ipb_user, ipb_auto);
    """)
    now, ips, comments = NOW, set(), {}

    def sha(s):  # in base 36, as MediaWiki writes it
        n, out = int(hashlib.sha1(s.encode()).hexdigest(), 16), ""
        while n:
            n, out = n // 36, "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36] + out
        return out

    def ip():
        a = f"{rnd.choice([81, 92, 176, 203])}.{rnd.randint(0, 255)}.{rnd.randint(0, 255)}.{rnd.randint(1, 254)}"
        return ip() if a in ips else ips.add(a) or a

    def comment(text):  # one row per distinct text
        if text not in comments:
            h = zlib.crc32(text.encode())
            comments[text] = put(c, "comment", comment_hash=h - (1 << 32) if h >= 1 << 31 else h, comment_text=text)
        return comments[text]

    put(c, "slot_roles", role_id=1, role_name="main")
    models = ["wikitext", "javascript", "css", "json"]
    for i, n in enumerate(models, start=1):
        put(c, "content_models", model_id=i, model_name=n)
    NU = 300
    names = {u: f"{rnd.choice(['Ann', 'Bo', 'Cleo', 'Dag', 'Eve', 'Finn', 'Gus'])}{rnd.choice(WORDS).title()}{u}" for u in range(1, NU + 1)}
    reg = sorted(rnd.randint(T0 - 2 * 365 * 86400, now - 86400) for _ in range(NU))
    bots = rnd.sample(range(1, NU + 1), 4)
    sysops = rnd.sample([u for u in range(1, NU + 1) if u not in bots], 12)
    order = list(range(1, NU + 1)) + [None] * 160  # an IP's first edit makes it an actor, actor_user NULL
    rnd.shuffle(order)
    actor = {u: a for a, u in enumerate(order, start=1) if u}
    ufor, anon = {a: u for u, a in actor.items()}, [a for a, u in enumerate(order, start=1) if not u]
    for a, u in enumerate(order, start=1):
        put(c, "actor", actor_id=a, actor_user=u, actor_name=names[u] if u else ip())
    for u in range(1, NU + 1):
        put(c, "user", user_id=u, user_name=names[u], user_password=":pbkdf2:sha512:30000:64:" + sha(str(u)), user_email=f"{names[u].lower()}@example.org",
            user_touched=stamp(now - rnd.randint(0, 9_999_999)), user_token=sha(names[u])[:32], user_registration=stamp(reg[u - 1]),
            user_email_authenticated=stamp(reg[u - 1] + 600) if rnd.random() < 0.6 else None, user_editcount=0)
    groups = [(u, "sysop") for u in sysops] + [(u, "bureaucrat") for u in sysops[:3]] + [(u, "interface-admin") for u in sysops[:2]]
    groups += [(u, "bot") for u in bots] + [(u, "autopatrolled") for u in rnd.sample(range(1, NU + 1), 30) if u not in bots]
    for u, g in groups:
        put(c, "user_groups", ug_user=u, ug_group=g, ug_expiry=stamp(now + rnd.randint(0, 9_999_999)) if g == "autopatrolled" and u % 3 == 0 else None)
    comment("")
    summaries = ["", "", "", "typo", "copyedit", "/* History */ expand", "/* References */ fix", "rv vandalism", "update",
                 "Reverted edits by an IP", "wikify", "+cat", "Bot: fixing links", "Created page with \"...\""]

    def editor():
        r = rnd.random()
        return rnd.choice(anon) if r < 0.15 else actor[rnd.choice(bots) if r < 0.35 else rnd.choice(sysops) if r < 0.5 else rnd.randint(1, NU)]

    pages, seen = [], set()  # (created, namespace, title, content model), numbered by creation
    for i in range(1300):
        ns = rnd.choices([0, 1, 2, 4, 6, 10, 14], [58, 10, 8, 3, 8, 7, 6])[0]
        w = rnd.choice(WORDS).title() + "_" + rnd.choice(WORDS)
        title = {2: names[rnd.randint(1, NU)] + rnd.choice(["", "", "", "/common.js", "/common.css"]), 6: f"{w}_{i}.jpg", 10: f"Infobox_{w}",
                 14: f"{w}s"}.get(ns, f"{w}_{i}")
        if (ns, title) not in seen:
            seen.add((ns, title))
            model = 2 if title.endswith(".js") else 3 if title.endswith(".css") else 4 if ns == 4 and rnd.random() < 0.2 else 1
            pages.append((rnd.randint(T0, now - 3600), ns, title, model))
    pages.sort()
    deleted = set(rnd.sample(range(1, len(pages) + 1), 60))
    revs = []
    for pid, (t, *_) in enumerate(pages, start=1):
        revs += [(x, pid) for x in sorted([t] + [rnd.randint(t, now) for _ in range(min(int(rnd.expovariate(0.4)), 24))])]
    revs.sort()
    last, first, hist, live, edits = {}, {}, {}, [], {}
    for rid, (t, pid) in enumerate(revs, start=1):  # revisions of a deleted page go to archive, with the same numbering
        ns, title, model = pages[pid - 1][1:]
        parent, plen = last.get(pid, (0, 0))[:2]
        who = first.setdefault(pid, editor()) if not parent else editor()
        if pid in hist and rnd.random() < 0.06:  # a revert: an earlier revision's content again
            cid, size, digest = rnd.choice(hist[pid])
        else:
            size, digest = max(0, plen + rnd.randint(-400, 1500)) if parent else rnd.randint(40, 5000), sha(f"{pid}/{rid}")
            cid = put(c, "text", old_text=f"text of page {pid}, revision {rid}", old_flags="utf-8")
            put(c, "content", content_id=cid, content_size=size, content_sha1=digest, content_model=model, content_address=f"tt:{cid}")
            hist.setdefault(pid, []).append((cid, size, digest))
        summ = comment(rnd.choice(summaries) if rnd.random() < 0.8 else f"/* {rnd.choice(WORDS).title()} */ {rnd.choice(WORDS)} {rid}")
        minor, hidden = int(rnd.random() < 0.3), rnd.choices([0, 1, 7], [98, 1, 1])[0]
        edits[ufor.get(who)] = edits.get(ufor.get(who), 0) + 1
        if pid in deleted:
            put(c, "archive", ar_namespace=ns, ar_title=title, ar_comment_id=summ, ar_actor=who, ar_timestamp=stamp(t), ar_minor_edit=minor,
                ar_rev_id=rid, ar_deleted=hidden, ar_len=size, ar_page_id=pid, ar_parent_id=parent, ar_sha1=digest)
        else:
            put(c, "revision", rev_id=rid, rev_page=pid, rev_comment_id=summ, rev_actor=who, rev_timestamp=stamp(t), rev_minor_edit=minor,
                rev_deleted=hidden, rev_len=size, rev_parent_id=parent, rev_sha1=digest)
            live.append((t, rid, pid, who, summ, minor, parent, plen, size))
        put(c, "slots", slot_revision_id=rid, slot_role_id=1, slot_content_id=cid, slot_origin=rid)
        last[pid] = (rid, size, t, parent == 0)
    for u, n in edits.items():
        c.execute("UPDATE user SET user_editcount = ? WHERE user_id = ?", (n, u))
    alive = [pid for pid in range(1, len(pages) + 1) if pid not in deleted]
    for pid in alive:
        rid, size, t, new = last[pid]
        put(c, "page", page_id=pid, page_namespace=pages[pid - 1][1], page_title=pages[pid - 1][2], page_is_redirect=int(rnd.random() < 0.05),
            page_is_new=int(new), page_random=rnd.random(), page_touched=stamp(t), page_links_updated=stamp(t + 60), page_latest=rid, page_len=size,
            page_content_model=models[pages[pid - 1][3] - 1])
    # blocks of an IP (ipb_user 0) or a user; a user's block leaves autoblocks on the IPs it used
    logs, blocks, blockable = [], [], iter(rnd.sample([x for x in range(1, NU + 1) if x not in sysops], 40))
    for _ in range(45):
        kind = rnd.choices(["ip", "user", "range"], [5, 4, 1])[0]
        u = next(blockable) if kind == "user" else 0
        blocks.append((rnd.randint(T0, now), names[u] if u else ip() + ("/24" if kind == "range" else ""), u, actor[rnd.choice(sysops)],
                       comment(rnd.choice(["Vandalism", "Spam", "Sockpuppetry"]))))
    for t, addr, u, by, why in sorted(blocks):
        hexa = "" if u else "%08X" % int.from_bytes(bytes(int(x) for x in addr.split("/")[0].split(".")), "big")
        put(c, "ipblocks", ipb_address=addr, ipb_user=u, ipb_by_actor=by, ipb_reason_id=why, ipb_timestamp=stamp(t), ipb_anon_only=int(not u),
            ipb_expiry=rnd.choice(["infinity", stamp(t + 86400 * rnd.choice([1, 3, 31, 365]))]), ipb_range_start=hexa, ipb_range_end=hexa)
        logs.append((t, "block", "block", by, 2, addr, 0, why))
    for bid, t, why in c.execute("SELECT ipb_id, ipb_timestamp, ipb_reason_id FROM ipblocks WHERE ipb_user <> 0").fetchall():
        for _ in range(rnd.choice([0, 0, 1, 2])):
            put(c, "ipblocks", ipb_address=ip(), ipb_user=0, ipb_by_actor=actor[sysops[0]], ipb_reason_id=why, ipb_timestamp=t, ipb_auto=1,
                ipb_expiry=stamp(now + 86400), ipb_range_start="", ipb_range_end="", ipb_parent_block_id=bid)
    # the log: log_page is the page's id, 0 when the target has no page (a user, a deleted page)
    logs += [(reg[u - 1], "newusers", "create", actor[u], 2, names[u], 0, 1) for u in range(1, NU + 1)]
    for pid in alive:
        t0, ns, title = pages[pid - 1][:3]
        sysop = actor[rnd.choice(sysops)]
        for typ, p, who, why in [("create", 0.3, first[pid], 1), ("upload", ns == 6, first[pid], 1), ("protect", 0.04, sysop, comment("Persistent vandalism")),
                                 ("move", 0.03, editor(), comment("better title")), ("patrol", 0.2, sysop, 1)]:
            if rnd.random() < p:
                logs.append((t0 if typ in ("create", "upload") else rnd.randint(t0, now), typ, typ, who, ns, title + "_(old)" * (typ == "move"), pid, why))
    for pid in deleted:
        logs.append((rnd.randint(last[pid][2], now), "delete", "delete", actor[rnd.choice(sysops)], *pages[pid - 1][1:3], 0,
                     comment(rnd.choice(["[[WP:CSD#A7|A7]]", "Spam", "Housekeeping"]))))
    logs.sort()
    rc_cut, rcs = now - 120 * 86400, []  # recent changes: the last 120 days' edits and log entries
    for lid, (t, typ, act, who, ns, title, pid, why) in enumerate(logs, start=1):
        put(c, "logging", log_id=lid, log_type=typ, log_action=act, log_timestamp=stamp(t), log_actor=who, log_namespace=ns, log_title=title,
            log_page=pid, log_comment_id=why, log_params="a:0:{}", log_deleted=rnd.choices([0, 1], [99, 1])[0])
        if t >= rc_cut:
            rcs.append((t, dict(rc_actor=who, rc_namespace=ns, rc_title=title, rc_comment_id=why, rc_cur_id=pid, rc_type=3, rc_source="mw.log",
                                rc_logid=lid, rc_log_type=typ, rc_log_action=act, rc_params="a:0:{}")))
    for t, rid, pid, who, summ, minor, parent, plen, size in live:
        if t >= rc_cut:
            rcs.append((t, dict(rc_actor=who, rc_namespace=pages[pid - 1][1], rc_title=pages[pid - 1][2], rc_comment_id=summ, rc_minor=minor,
                                rc_bot=int(ufor.get(who) in bots), rc_new=int(parent == 0), rc_cur_id=pid, rc_this_oldid=rid, rc_last_oldid=parent,
                                rc_type=int(parent == 0), rc_source="mw.new" if parent == 0 else "mw.edit", rc_patrolled=rnd.choice([0, 1, 2]),
                                rc_ip=ip(), rc_old_len=plen if parent else None, rc_new_len=size)))
    for t, row in sorted(rcs, key=lambda r: r[0]):
        put(c, "recentchanges", rc_timestamp=stamp(t), **row)
    # links by title: categories, templates (through linktarget), pages; red links included
    cats = [pages[p - 1][2] for p in alive if pages[p - 1][1] == 14] + [f"Stubs_{i}" for i in range(8)]
    temps = [x[2] for x in pages if x[1] == 10] + [f"Citation_needed_{i}" for i in range(10)]
    lt = {}
    for pid in alive:
        ns, title = pages[pid - 1][1:3]
        for cat in rnd.sample(cats, rnd.randint(0, 3)) if ns in (0, 6, 10, 14) else []:
            if cat != title:
                put(c, "categorylinks", cl_from=pid, cl_to=cat, cl_sortkey=title.replace("_", " ").upper(), cl_timestamp=stamp(last[pid][2]),
                    cl_collation="uppercase", cl_type={14: "subcat", 6: "file"}.get(ns, "page"))
        if ns in (0, 1, 2, 4, 14):
            for tpl in rnd.sample(temps, rnd.randint(0, 4)):
                if tpl not in lt:
                    lt[tpl] = put(c, "linktarget", lt_namespace=10, lt_title=tpl)
                put(c, "templatelinks", tl_from=pid, tl_target_id=lt[tpl], tl_from_namespace=ns)
            for tns, tt in sorted({rnd.choice(pages)[1:3] if rnd.random() < 0.75 else (0, f"{rnd.choice(WORDS).title()}_{rnd.randint(1, 99999)}")
                                   for _ in range(rnd.randint(0, 10))}):
                put(c, "pagelinks", pl_from=pid, pl_namespace=tns, pl_title=tt, pl_from_namespace=ns)
    for u in rnd.sample(range(1, NU + 1), 200):
        for p in rnd.sample(alive, rnd.randint(1, 12)):
            ns, title = pages[p - 1][1:3]
            for wns in {ns - ns % 2, ns - ns % 2 + 1}:  # a page and its talk page are watched together
                c.execute("INSERT OR IGNORE INTO watchlist (wl_user, wl_namespace, wl_title, wl_notificationtimestamp) VALUES (?,?,?,?)",
                          (u, wns, title, stamp(now - rnd.randint(0, 9_999_999)) if rnd.random() < 0.2 else None))
    c.commit()
    # child, columns, parent, columns, 0 stands for none
    return c, [
        ("revision", "rev_page", "page", "page_id", False), ("revision", "rev_comment_id", "comment", "comment_id", False),
        ("revision", "rev_actor", "actor", "actor_id", False), ("revision", "rev_parent_id", "revision", "rev_id", True),
        ("page", "page_latest", "revision", "rev_id", False), ("slots", "slot_content_id", "content", "content_id", False),
        ("slots", "slot_role_id", "slot_roles", "role_id", False), ("content", "content_model", "content_models", "model_id", False),
        ("actor", "actor_user", "user", "user_id", False), ("user_groups", "ug_user", "user", "user_id", False),
        ("categorylinks", "cl_from", "page", "page_id", False), ("pagelinks", "pl_from", "page", "page_id", False),
        ("templatelinks", "tl_from", "page", "page_id", False), ("templatelinks", "tl_target_id", "linktarget", "lt_id", False),
        ("logging", "log_actor", "actor", "actor_id", False), ("logging", "log_comment_id", "comment", "comment_id", False),
        ("logging", "log_page", "page", "page_id", True), ("recentchanges", "rc_actor", "actor", "actor_id", False),
        ("recentchanges", "rc_comment_id", "comment", "comment_id", False), ("recentchanges", "rc_cur_id", "page", "page_id", True),
        ("recentchanges", "rc_this_oldid", "revision", "rev_id", True), ("recentchanges", "rc_last_oldid", "revision", "rev_id", True),
        ("recentchanges", "rc_logid", "logging", "log_id", True), ("archive", "ar_actor", "actor", "actor_id", False),
        ("archive", "ar_comment_id", "comment", "comment_id", False), ("watchlist", "wl_user", "user", "user_id", False),
        ("ipblocks", "ipb_user", "user", "user_id", True), ("ipblocks", "ipb_by_actor", "actor", "actor_id", False),
        ("ipblocks", "ipb_reason_id", "comment", "comment_id", False), ("ipblocks", "ipb_parent_block_id", "ipblocks", "ipb_id", False),
    ]


def moodle(path):
    rnd = random.Random(17)
    c = sqlite3.connect(path)
    N, S, T = "BIGINT NOT NULL DEFAULT 0", "VARCHAR(255) NOT NULL DEFAULT ''", "TEXT"
    c.executescript(f"""
    CREATE TABLE mdl_mnet_host (id INTEGER PRIMARY KEY, deleted {N}, wwwroot {S}, ip_address {S}, name {S}, public_key {T}, transport {N}, portno {N},
        last_connect_time {N}, last_log_id {N}, applicationid BIGINT NOT NULL DEFAULT 1);
    CREATE TABLE mdl_user (id INTEGER PRIMARY KEY, auth VARCHAR(20) NOT NULL DEFAULT 'manual', confirmed {N}, deleted {N}, suspended {N}, mnethostid {N},
        username {S}, password {S}, idnumber {S}, firstname {S}, lastname {S}, email {S}, city {S}, country VARCHAR(2) NOT NULL DEFAULT '',
        lang VARCHAR(30) NOT NULL DEFAULT 'en', firstaccess {N}, lastaccess {N}, lastlogin {N}, lastip {S}, picture {N}, timecreated {N}, timemodified {N});
    CREATE UNIQUE INDEX mdl_user_mneuse_uix ON mdl_user (mnethostid, username);
    CREATE TABLE mdl_course_categories (id INTEGER PRIMARY KEY, name {S}, idnumber VARCHAR(100), description {T}, parent {N}, sortorder {N},
        coursecount {N}, visible BIGINT NOT NULL DEFAULT 1, timemodified {N}, depth {N}, path {S});
    CREATE TABLE mdl_course (id INTEGER PRIMARY KEY, category {N}, sortorder {N}, fullname VARCHAR(1333) NOT NULL DEFAULT '', shortname {S},
        idnumber VARCHAR(100) NOT NULL DEFAULT '', summary {T}, format VARCHAR(21) NOT NULL DEFAULT 'topics', showgrades BIGINT NOT NULL DEFAULT 1,
        newsitems BIGINT NOT NULL DEFAULT 1, startdate {N}, enddate {N}, marker {N}, visible BIGINT NOT NULL DEFAULT 1, groupmode {N},
        groupmodeforce {N}, defaultgroupingid {N}, timecreated {N}, timemodified {N}, enablecompletion {N}, cacherev {N});
    CREATE TABLE mdl_course_sections (id INTEGER PRIMARY KEY, course {N}, section {N}, name VARCHAR(255), summary {T}, sequence {T},
        visible BIGINT NOT NULL DEFAULT 1, timemodified {N});
    CREATE UNIQUE INDEX mdl_coursect_cousec_uix ON mdl_course_sections (course, section);
    CREATE TABLE mdl_context (id INTEGER PRIMARY KEY, contextlevel {N}, instanceid {N}, path {S}, depth {N}, locked {N});
    CREATE UNIQUE INDEX mdl_cont_conins_uix ON mdl_context (contextlevel, instanceid);
    CREATE TABLE mdl_role (id INTEGER PRIMARY KEY, name {S}, shortname VARCHAR(100) NOT NULL DEFAULT '', description {T}, sortorder {N},
        archetype VARCHAR(30) NOT NULL DEFAULT '');
    CREATE UNIQUE INDEX mdl_role_sho_uix ON mdl_role (shortname);
    CREATE UNIQUE INDEX mdl_role_sor_uix ON mdl_role (sortorder);
    CREATE TABLE mdl_role_assignments (id INTEGER PRIMARY KEY, roleid {N}, contextid {N}, userid {N}, timemodified {N}, modifierid {N},
        component VARCHAR(100) NOT NULL DEFAULT '', itemid {N}, sortorder {N});
    CREATE TABLE mdl_enrol (id INTEGER PRIMARY KEY, enrol VARCHAR(20) NOT NULL DEFAULT '', status {N}, courseid {N}, sortorder {N}, name VARCHAR(255),
        enrolperiod BIGINT DEFAULT 0, password VARCHAR(50), roleid BIGINT DEFAULT 0, customint1 BIGINT, customint2 BIGINT, customint3 BIGINT,
        timecreated {N}, timemodified {N});
    CREATE TABLE mdl_user_enrolments (id INTEGER PRIMARY KEY, status {N}, enrolid BIGINT NOT NULL, userid BIGINT NOT NULL, timestart {N},
        timeend BIGINT NOT NULL DEFAULT 2147483647, modifierid {N}, timecreated {N}, timemodified {N});
    CREATE UNIQUE INDEX mdl_userenro_enruse_uix ON mdl_user_enrolments (enrolid, userid);
    CREATE TABLE mdl_modules (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL DEFAULT '', cron {N}, lastcron {N}, search {S}, visible BIGINT NOT NULL DEFAULT 1);
    CREATE TABLE mdl_course_modules (id INTEGER PRIMARY KEY, course {N}, module {N}, instance {N}, section {N}, idnumber VARCHAR(100), added {N},
        score {N}, indent {N}, visible BIGINT NOT NULL DEFAULT 1, groupmode {N}, groupingid {N}, completion {N}, completionexpected {N},
        showdescription {N}, deletioninprogress {N});
    CREATE TABLE mdl_forum (id INTEGER PRIMARY KEY, course {N}, type VARCHAR(20) NOT NULL DEFAULT 'general', name {S}, intro {T}, assessed {N},
        scale {N}, grade_forum {N}, maxbytes {N}, maxattachments BIGINT NOT NULL DEFAULT 1, forcesubscribe {N}, trackingtype BIGINT NOT NULL DEFAULT 1,
        timemodified {N}, completiondiscussions {N}, completionposts {N});
    CREATE TABLE mdl_forum_discussions (id INTEGER PRIMARY KEY, course {N}, forum {N}, name {S}, firstpost {N}, userid {N},
        groupid BIGINT NOT NULL DEFAULT -1, assessed BIGINT NOT NULL DEFAULT 1, timemodified {N}, usermodified {N}, timestart {N}, timeend {N},
        pinned {N}, timelocked {N});
    CREATE TABLE mdl_forum_posts (id INTEGER PRIMARY KEY, discussion {N}, parent {N}, userid {N}, created {N}, modified {N}, mailed {N}, subject {S},
        message {T}, messageformat {N}, attachment VARCHAR(100) NOT NULL DEFAULT '', totalscore {N}, deleted {N}, privatereplyto {N},
        wordcount BIGINT, charcount BIGINT);
    CREATE TABLE mdl_grade_categories (id INTEGER PRIMARY KEY, courseid BIGINT NOT NULL, parent BIGINT, depth {N}, path VARCHAR(255), fullname {S},
        aggregation {N}, droplow {N}, hidden {N}, timecreated BIGINT NOT NULL, timemodified BIGINT NOT NULL);
    CREATE TABLE mdl_grade_items (id INTEGER PRIMARY KEY, courseid BIGINT, categoryid BIGINT, itemname VARCHAR(255), itemtype VARCHAR(30) NOT NULL DEFAULT '',
        itemmodule VARCHAR(30), iteminstance BIGINT, itemnumber BIGINT, idnumber VARCHAR(255), gradetype BIGINT NOT NULL DEFAULT 1,
        grademax DECIMAL(10,5) NOT NULL DEFAULT 100, grademin DECIMAL(10,5) NOT NULL DEFAULT 0, scaleid BIGINT, outcomeid BIGINT, sortorder {N},
        hidden {N}, locked {N}, needsupdate {N}, timecreated BIGINT, timemodified BIGINT);
    CREATE TABLE mdl_grade_grades (id INTEGER PRIMARY KEY, itemid BIGINT NOT NULL, userid BIGINT NOT NULL, rawgrade DECIMAL(10,5),
        rawgrademax DECIMAL(10,5) NOT NULL DEFAULT 100, rawgrademin DECIMAL(10,5) NOT NULL DEFAULT 0, rawscaleid BIGINT, usermodified BIGINT,
        finalgrade DECIMAL(10,5), hidden {N}, locked {N}, overridden {N}, excluded {N}, feedback {T}, timecreated BIGINT, timemodified BIGINT,
        aggregationstatus VARCHAR(10) NOT NULL DEFAULT 'unknown', aggregationweight DECIMAL(10,5));
    CREATE UNIQUE INDEX mdl_gradgrad_useite_uix ON mdl_grade_grades (userid, itemid);
    CREATE TABLE mdl_groups (id INTEGER PRIMARY KEY, courseid BIGINT NOT NULL, idnumber VARCHAR(100) NOT NULL DEFAULT '', name VARCHAR(254) NOT NULL DEFAULT '',
        description {T}, enrolmentkey VARCHAR(50), picture {N}, timecreated {N}, timemodified {N}, visibility {N});
    CREATE TABLE mdl_groups_members (id INTEGER PRIMARY KEY, groupid {N}, userid {N}, timeadded {N}, component VARCHAR(100) NOT NULL DEFAULT '', itemid {N});
    CREATE UNIQUE INDEX mdl_groumemb_usegro_uix ON mdl_groups_members (userid, groupid);
    CREATE TABLE mdl_logstore_standard_log (id INTEGER PRIMARY KEY, eventname {S}, component VARCHAR(100) NOT NULL DEFAULT '',
        action VARCHAR(100) NOT NULL DEFAULT '', target VARCHAR(100) NOT NULL DEFAULT '', objecttable VARCHAR(50), objectid BIGINT,
        crud VARCHAR(1) NOT NULL DEFAULT '', edulevel BIGINT NOT NULL, contextid BIGINT NOT NULL, contextlevel BIGINT NOT NULL,
        contextinstanceid BIGINT NOT NULL, userid BIGINT NOT NULL, courseid BIGINT, relateduserid BIGINT, anonymous {N}, other {T},
        timecreated BIGINT NOT NULL, origin VARCHAR(10), ip VARCHAR(45), realuserid BIGINT);
    """)

    def when(lo=T0, hi=NOW):
        return rnd.randint(lo, hi)

    for h, (www, name) in enumerate([("https://learn.example.edu", ""), ("", "All Hosts"), ("https://moodle.partner.edu", "Partner")], start=1):
        put(c, "mdl_mnet_host", id=h, wwwroot=www, name=name, portno=443 * (h == 3), last_connect_time=when() * (h == 3), last_log_id=rnd.randint(1, 90_000) * (h == 3))
    NU, NC, staff = 900, 121, range(3, 61)
    put(c, "mdl_user", id=1, username="guest", firstname="Guest user", confirmed=1, mnethostid=1)  # the guest and the admin come first
    put(c, "mdl_user", id=2, username="admin", firstname="Admin", lastname="User", confirmed=1, mnethostid=1, email="admin@example.edu", timecreated=T0)
    students = []
    for u in range(3, NU + 1):
        remote, t = u > 60 and rnd.random() < 0.02, when()
        fn, ln = rnd.choice(["Ana", "Ben", "Chen", "Dana", "Emil", "Fatma", "Gio", "Hana"]), rnd.choice(WORDS).title()
        gone = u > 60 and rnd.random() < 0.02
        put(c, "mdl_user", id=u, auth="mnet" if remote else rnd.choice(["manual", "manual", "ldap"]), confirmed=1, deleted=int(gone),
            suspended=int(rnd.random() < 0.01), mnethostid=3 if remote else 1, username=f"{fn.lower()}.{ln.lower()}{u}", password="$6$" + str(rnd.getrandbits(64)),
            idnumber=f"S{2000000 + u}" if u > 60 else "", firstname=fn, lastname=ln, email=f"{fn.lower()}{u}@example.edu", city="Springfield",
            country=rnd.choice(["US", "DE", "ES", "IN"]), firstaccess=t, lastaccess=when(t), lastlogin=when(t), lastip=f"10.8.{rnd.randint(0, 255)}.{rnd.randint(1, 254)}",
            picture=rnd.randint(1000, 90000) if rnd.random() < 0.3 else 0, timecreated=t, timemodified=when(t))
        if u > 60 and not gone:
            students.append(u)
    ctx = {}

    def context(level, inst, parent=None):  # path: the ids of the contexts above and its own
        cid = len(ctx) + 1
        ctx[(level, inst)] = (cid, (ctx[parent][1] if parent else "") + f"/{cid}")
        put(c, "mdl_context", id=cid, contextlevel=level, instanceid=inst, path=ctx[(level, inst)][1], depth=ctx[(level, inst)][1].count("/"))

    context(10, 0)
    cpath = {0: ""}
    for k in range(1, 25):
        parent = 0 if k <= 6 else rnd.randint(1, k - 1)
        cpath[k] = cpath[parent] + f"/{k}"
        put(c, "mdl_course_categories", id=k, name=f"{rnd.choice(WORDS).title()} studies", idnumber=f"CAT{k}", parent=parent, sortorder=k * 10000,
            timemodified=when(), depth=cpath[k].count("/"), path=cpath[k])
        context(40, k, (40, parent) if parent else (10, 0))
    for r, n in enumerate(["manager", "coursecreator", "editingteacher", "teacher", "student", "guest", "user", "frontpage"], start=1):
        put(c, "mdl_role", id=r, shortname=n, description="", sortorder=r, archetype=n)
    mods = ["assign", "book", "chat", "choice", "data", "feedback", "folder", "forum", "glossary", "h5pactivity", "imscp", "label", "lesson",
            "lti", "page", "quiz", "resource", "scorm", "survey", "url", "wiki", "workshop"]
    for m, n in enumerate(mods, start=1):
        put(c, "mdl_modules", id=m, name=n, visible=int(n not in ("chat", "survey")))
    courses = {}
    for co in range(1, NC + 1):  # course 1 is the front page: category 0
        t, cat = when(), 0 if co == 1 else rnd.randint(1, 24)
        courses[co] = (t, 0 if co == 1 else rnd.choice([0, 0, 1, 2]))
        put(c, "mdl_course", id=co, category=cat, sortorder=co, fullname="Example University" if co == 1 else f"{rnd.choice(WORDS).title()} {100 + co}",
            shortname=f"C{100 + co}", format="site" if co == 1 else rnd.choice(["topics", "weeks"]), startdate=t, enddate=t + 120 * 86400,
            marker=rnd.randint(0, 4), newsitems=rnd.choice([0, 3, 5]), groupmode=courses[co][1], timecreated=t, timemodified=when(t),
            enablecompletion=rnd.randint(0, 1), cacherev=when(t))
        context(50, co, (40, cat) if cat else (10, 0))
    c.execute("UPDATE mdl_course_categories SET coursecount = (SELECT count(*) FROM mdl_course WHERE category = mdl_course_categories.id)")
    for u in range(1, NU + 1):
        context(30, u, (10, 0))
    log = []

    def event(t, name, crud, ckey, userid, courseid, table=None, objectid=None, related=None, real=None, other="N;"):
        target, action = name.split("\\")[-1].rsplit("_", 1)
        log.append((t, dict(eventname=name, component=name.split("\\")[1], action=action, target=target, objecttable=table, objectid=objectid, crud=crud,
                            edulevel=2 if ckey[0] >= 50 else 0, contextid=ctx[ckey][0], contextlevel=ckey[0], contextinstanceid=ckey[1], userid=userid,
                            courseid=courseid, relateduserid=related, other=other, timecreated=t, origin="web", ip=f"10.8.{rnd.randint(0, 255)}.{rnd.randint(1, 254)}",
                            realuserid=real)))

    for u in range(3, 9):  # managers at the top, course creators in a category
        put(c, "mdl_role_assignments", roleid=1 if u < 5 else 2, contextid=1 if u < 5 else ctx[(40, rnd.randint(1, 6))][0], userid=u, timemodified=T0, modifierid=2)
    for co, (t, gmode) in courses.items():
        cctx = (50, co)
        secs = [put(c, "mdl_course_sections", course=co, section=s, name=None if s else "General", summary="", sequence="", timemodified=t)
                for s in range(rnd.randint(4, 12) if co > 1 else 2)]
        teach, studs, groups = [], [], []
        if co > 1:  # enrolment methods: manual, self, guest (roleid 0)
            manual, selfe = [put(c, "mdl_enrol", enrol=e, status=s, courseid=co, sortorder=k, roleid=5, customint1=0, customint3=rnd.choice([0, 30]),
                                 timecreated=t, timemodified=t) for k, (e, s) in enumerate([("manual", 0), ("self", rnd.choice([0, 1]))])]
            put(c, "mdl_enrol", enrol="guest", status=1, courseid=co, sortorder=2, roleid=0, password="", timecreated=t, timemodified=t)
            teach, studs = rnd.sample(staff, rnd.randint(1, 3)), rnd.sample(students, rnd.randint(8, 40))
            for u in teach + studs:
                te, via = when(t, t + 60 * 86400), selfe if u in studs and rnd.random() < 0.2 else manual
                by = u if via == selfe else 2 if u in teach else rnd.choice([teach[0], teach[0], 2, 0])  # 0: by a scheduled task
                ue = put(c, "mdl_user_enrolments", status=int(rnd.random() < 0.05), enrolid=via, userid=u, timestart=te, timeend=0, modifierid=by,
                         timecreated=te, timemodified=te)
                put(c, "mdl_role_assignments", roleid=rnd.choice([3, 3, 4]) if u in teach else 5, contextid=ctx[cctx][0], userid=u, timemodified=te, modifierid=by)
                event(te, "\\core\\event\\user_enrolment_created", "c", cctx, by or 2, co, "user_enrolments", ue, related=u)
            if gmode or rnd.random() < 0.2:
                groups = [put(c, "mdl_groups", courseid=co, name=f"Group {chr(65 + g)}", description="", timecreated=t, timemodified=t) for g in range(rnd.randint(2, 5))]
                for u in studs:
                    if rnd.random() < 0.8:
                        put(c, "mdl_groups_members", groupid=rnd.choice(groups), userid=u, timeadded=when(t))
        people = teach + studs
        # the gradebook: a root category (parent NULL) whose course item has categoryid NULL, subcategories, one item per graded activity
        root = put(c, "mdl_grade_categories", courseid=co, parent=None, depth=1, fullname="?", aggregation=13, timecreated=t, timemodified=t)
        gcats, items = [root], [put(c, "mdl_grade_items", courseid=co, itemtype="course", iteminstance=root, sortorder=1, timecreated=t, timemodified=t)]
        for k in range(rnd.choice([0, 0, 1, 2])):
            gcats.append(put(c, "mdl_grade_categories", courseid=co, parent=root, depth=2, fullname=rnd.choice(["Quizzes", "Homework", "Labs"]),
                             aggregation=rnd.choice([0, 10, 13]), droplow=rnd.choice([0, 1]), timecreated=t, timemodified=t))
            items.append(put(c, "mdl_grade_items", courseid=co, itemtype="category", iteminstance=gcats[-1], sortorder=len(items) + 1, timecreated=t, timemodified=t))
        c.executemany("UPDATE mdl_grade_categories SET path = ? WHERE id = ?", [(f"/{root}/" + (f"{g}/" if g != root else ""), g) for g in gcats])
        seq = {s: [] for s in secs}
        kinds = ["forum"] * rnd.randint(1, 3) + rnd.choices(["assign", "quiz", "page", "resource", "url", "label", "book"], k=rnd.randint(3, 10))
        for i, kind in enumerate(kinds):
            sec, ftype = secs[0] if i == 0 else rnd.choice(secs), "news" if i == 0 else rnd.choice(["general", "general", "qanda", "single"])
            assessed = int(kind == "forum" and i > 0 and rnd.random() < 0.3)
            if kind == "forum":
                inst = put(c, "mdl_forum", course=co, type=ftype, name="Announcements" if i == 0 else f"{rnd.choice(WORDS).title()} forum", intro="",
                           assessed=assessed, scale=rnd.choice([100, 10, -1]) if assessed else 0, forcesubscribe=int(i == 0), timemodified=t)
            else:
                inst = rnd.randint(1, 2000)  # a row of mdl_assign, mdl_quiz ... (not in this extract)
            cm = put(c, "mdl_course_modules", course=co, module=mods.index(kind) + 1, instance=inst, section=sec, added=when(t), indent=rnd.choice([0, 0, 1]),
                     groupmode=gmode, completion=rnd.choice([0, 1, 2]), showdescription=rnd.randint(0, 1))
            seq[sec].append(str(cm))
            context(70, cm, cctx)
            if kind in ("assign", "quiz") or assessed:
                items.append(put(c, "mdl_grade_items", courseid=co, categoryid=rnd.choice(gcats), itemname=f"{kind} {inst}", itemtype="mod", itemmodule=kind,
                                 iteminstance=inst, itemnumber=0, grademax=rnd.choice([10, 20, 100]), sortorder=len(items) + 1, timecreated=t, timemodified=t))
            for _ in range(rnd.randint(0, 1 if ftype == "single" else 6) if kind == "forum" and people else 0):
                starter, tlast = rnd.choice(teach if i == 0 else people), when(t)
                did = put(c, "mdl_forum_discussions", course=co, forum=inst, name=f"{rnd.choice(WORDS).title()} question", userid=starter,
                          groupid=rnd.choice(groups) if groups and rnd.random() < 0.5 else -1, timemodified=tlast, usermodified=starter, pinned=int(rnd.random() < 0.05))
                posts = []
                for k in range(1 if i == 0 else rnd.randint(1, 9)):  # the first post (parent 0), then replies
                    parent, who, text = rnd.choice(posts) if posts else (0, 0), rnd.choice(people) if posts else starter, " ".join(rnd.choices(WORDS, k=rnd.randint(5, 80)))
                    tlast += rnd.randint(60, 3 * 86400)
                    pid = put(c, "mdl_forum_posts", discussion=did, parent=parent[0], userid=who, created=tlast, modified=tlast, mailed=1,
                              subject=("Re: " if posts else "") + "question", message=text, messageformat=1, wordcount=len(text.split()), charcount=len(text),
                              privatereplyto=parent[1] if parent[0] and who in teach and rnd.random() < 0.15 else 0)
                    posts.append((pid, who))
                    event(tlast, "\\mod_forum\\event\\" + ("post_created" if k else "discussion_created"), "c", (70, cm), who, co,
                          "forum_posts" if k else "forum_discussions", pid if k else did)
                c.execute("UPDATE mdl_forum_discussions SET firstpost = ?, usermodified = ?, timemodified = ? WHERE id = ?", (posts[0][0], who, tlast, did))
        c.executemany("UPDATE mdl_course_sections SET sequence = ? WHERE id = ?", [(",".join(v), s) for s, v in seq.items()])
        items += [put(c, "mdl_grade_items", courseid=co, categoryid=root, itemname=f"Participation {k}", itemtype="manual", sortorder=len(items) + k,
                      timecreated=t, timemodified=t) for k in range(1, rnd.choice([1, 2, 3]))]
        for it in items:
            typ, top = c.execute("SELECT itemtype, grademax FROM mdl_grade_items WHERE id = ?", (it,)).fetchone()
            for u in (u for u in studs if rnd.random() < 0.35):
                g, own = round(rnd.uniform(0, top), 5), typ in ("mod", "manual")  # aggregated grades have no usermodified
                put(c, "mdl_grade_grades", itemid=it, userid=u, rawgrade=g if own else None, rawgrademax=top, usermodified=rnd.choice(teach) if own else None,
                    finalgrade=g, timecreated=when(t), timemodified=when(t), aggregationstatus="used", aggregationweight=None if own else 1.0)
        for u in people:
            for _ in range(rnd.randint(0, 2)):
                event(when(t), "\\core\\event\\course_viewed", "r", cctx, u, co)
    for _ in range(800):  # system-level events: courseid 0; a failed login's userid 0
        u = rnd.choice(students + list(staff))
        event(when(), "\\core\\event\\user_loggedin", "r", (10, 0), u, 0, "user", u, other='{"username":"x"}')
    for _ in range(150):
        event(when(), "\\core\\event\\user_login_failed", "r", (10, 0), 0, 0, other='{"username":"unknown","reason":1}')
    for u in rnd.sample(students, 25):
        event(when(), "\\core\\event\\user_loggedinas", "r", (10, 0), u, 0, "user", u, related=u, real=2)
    for _ in range(200):
        event(when(), "\\core\\event\\course_viewed", "r", (50, 1), 1, 1)
    for _, row in sorted(log, key=lambda e: e[0]):
        put(c, "mdl_logstore_standard_log", **row)
    c.commit()
    return c, [
        ("mdl_user", "mnethostid", "mdl_mnet_host", "id", False), ("mdl_course_categories", "parent", "mdl_course_categories", "id", True),
        ("mdl_course", "category", "mdl_course_categories", "id", True), ("mdl_course_sections", "course", "mdl_course", "id", False),
        ("mdl_role_assignments", "roleid", "mdl_role", "id", False), ("mdl_role_assignments", "contextid", "mdl_context", "id", False),
        ("mdl_role_assignments", "userid", "mdl_user", "id", False), ("mdl_role_assignments", "modifierid", "mdl_user", "id", True),
        ("mdl_enrol", "courseid", "mdl_course", "id", False), ("mdl_enrol", "roleid", "mdl_role", "id", True),
        ("mdl_user_enrolments", "enrolid", "mdl_enrol", "id", False), ("mdl_user_enrolments", "userid", "mdl_user", "id", False),
        ("mdl_user_enrolments", "modifierid", "mdl_user", "id", True), ("mdl_course_modules", "course", "mdl_course", "id", False),
        ("mdl_course_modules", "module", "mdl_modules", "id", False), ("mdl_course_modules", "section", "mdl_course_sections", "id", False),
        ("mdl_forum", "course", "mdl_course", "id", False), ("mdl_forum_discussions", "course", "mdl_course", "id", False),
        ("mdl_forum_discussions", "forum", "mdl_forum", "id", False), ("mdl_forum_discussions", "firstpost", "mdl_forum_posts", "id", False),
        ("mdl_forum_discussions", "userid", "mdl_user", "id", False), ("mdl_forum_discussions", "usermodified", "mdl_user", "id", True),
        ("mdl_forum_posts", "discussion", "mdl_forum_discussions", "id", False), ("mdl_forum_posts", "parent", "mdl_forum_posts", "id", True),
        ("mdl_forum_posts", "userid", "mdl_user", "id", False), ("mdl_forum_posts", "privatereplyto", "mdl_user", "id", True),
        ("mdl_grade_categories", "courseid", "mdl_course", "id", False), ("mdl_grade_categories", "parent", "mdl_grade_categories", "id", False),
        ("mdl_grade_items", "courseid", "mdl_course", "id", False), ("mdl_grade_items", "categoryid", "mdl_grade_categories", "id", False),
        ("mdl_grade_grades", "itemid", "mdl_grade_items", "id", False), ("mdl_grade_grades", "userid", "mdl_user", "id", False),
        ("mdl_grade_grades", "usermodified", "mdl_user", "id", False), ("mdl_groups", "courseid", "mdl_course", "id", False),
        ("mdl_groups_members", "groupid", "mdl_groups", "id", False), ("mdl_groups_members", "userid", "mdl_user", "id", False),
        ("mdl_logstore_standard_log", "contextid", "mdl_context", "id", False), ("mdl_logstore_standard_log", "userid", "mdl_user", "id", True),
        ("mdl_logstore_standard_log", "courseid", "mdl_course", "id", True), ("mdl_logstore_standard_log", "relateduserid", "mdl_user", "id", False),
        ("mdl_logstore_standard_log", "realuserid", "mdl_user", "id", False),
    ]


def sap(path):
    rnd = random.Random(19)
    c = sqlite3.connect(path)

    def table(name, key, fields):  # CHAR(n) blank by default, D a date, Nn digits, Q a quantity, A an amount; MANDT leads every key
        types = {"D": "VARCHAR(8) NOT NULL DEFAULT '00000000'", "Q": "DECIMAL(15,3) NOT NULL DEFAULT 0", "A": "DECIMAL(15,2) NOT NULL DEFAULT 0"}
        cols = [f"{f} " + types.get(t, f"VARCHAR({t.strip('N')}) NOT NULL DEFAULT '{'0' * int(t[1:]) if t[0] == 'N' else ''}'")
                for f, t in (x.split(":") for x in ("MANDT:N3 " + fields).split())]
        c.execute(f"CREATE TABLE {name} ({', '.join(cols)}, PRIMARY KEY (MANDT, {key}))")

    table("T005", "LAND1", "LAND1:3 LANDK:3 LNPLZ:N2 XEGLD:1 WAERS:5 SPRAS:1")
    table("T001", "BUKRS", "BUKRS:4 BUTXT:25 ORT01:25 LAND1:3 WAERS:5 SPRAS:1 KTOPL:4")
    table("T001W", "WERKS", "WERKS:4 NAME1:30 BWKEY:4 STRAS:30 PSTLZ:10 ORT01:25 LAND1:3 REGIO:3 SPRAS:1")
    table("TVKO", "VKORG", "VKORG:4 WAERS:5 BUKRS:4 ADRNR:10")
    table("TVAK", "AUART", "AUART:4 VBTYP:1 NUMKI:2 NUMKE:2 KALVG:1 FKARV:4 LFARV:4")
    table("KNA1", "KUNNR", "KUNNR:10 LAND1:3 NAME1:35 NAME2:35 ORT01:35 PSTLZ:10 REGIO:3 STRAS:35 TELF1:16 KTOKD:4 ERDAT:D ERNAM:12 SPRAS:1 "
                           "STCEG:20 LOEVM:1 AUFSD:2")
    table("MARA", "MATNR", "MATNR:18 ERSDA:D ERNAM:12 LAEDA:D MTART:4 MBRSH:1 MATKL:9 MEINS:3 BRGEW:Q NTGEW:Q GEWEI:3 SPART:2 LVORM:1")
    table("MAKT", "MATNR, SPRAS", "MATNR:18 SPRAS:1 MAKTX:40 MAKTG:40")
    table("VBAK", "VBELN", "VBELN:10 ERDAT:D ERZET:N6 ERNAM:12 AUDAT:D VBTYP:1 AUART:4 NETWR:A WAERK:5 VKORG:4 VTWEG:2 SPART:2 VKBUR:4 "
                           "KUNNR:10 BSTNK:20 GBSTK:1")
    table("VBAP", "VBELN, POSNR", "VBELN:10 POSNR:N6 MATNR:18 MATKL:9 ARKTX:40 PSTYV:4 ABGRU:2 KWMENG:Q VRKME:3 NETPR:A NETWR:A WAERK:5 "
                                  "WERKS:4 LGORT:4 ERDAT:D")
    table("LIKP", "VBELN", "VBELN:10 ERDAT:D ERNAM:12 LFART:4 VBTYP:1 VSTEL:4 VKORG:4 LFDAT:D WADAT_IST:D KUNNR:10 KUNAG:10 BTGEW:Q GEWEI:3 ANZPK:N5")
    table("LIPS", "VBELN, POSNR", "VBELN:10 POSNR:N6 PSTYV:4 MATNR:18 WERKS:4 LGORT:4 CHARG:10 LFIMG:Q VRKME:3 ARKTX:40 VGBEL:10 VGPOS:N6 "
                                  "VGTYP:1 ERDAT:D")
    table("VBRK", "VBELN", "VBELN:10 FKART:4 FKTYP:1 VBTYP:1 WAERK:5 VKORG:4 VTWEG:2 FKDAT:D BUKRS:4 NETWR:A MWSBK:A KUNRG:10 KUNAG:10 ZTERM:4 "
                           "RFBSK:1 ERNAM:12 ERDAT:D")
    table("VBRP", "VBELN, POSNR", "VBELN:10 POSNR:N6 FKIMG:Q VRKME:3 NETWR:A MATNR:18 ARKTX:40 WERKS:4 AUBEL:10 AUPOS:N6 VGBEL:10 VGPOS:N6 "
                                  "VGTYP:1 PSTYV:4 ERDAT:D")
    M = "100"

    def day(t):
        return stamp(t, "%Y%m%d")

    cur = dict(DE="EUR", AT="EUR", CH="CHF", FR="EUR", IT="EUR", ES="EUR", NL="EUR", BE="EUR", PL="PLN", CZ="CZK", GB="GBP", US="USD", CA="CAD",
               MX="MXN", BR="BRL", CN="CNY", JP="JPY", IN="INR", AU="AUD", ZA="ZAR", SE="SEK", DK="DKK", NO="NOK", FI="EUR", IE="EUR", PT="EUR",
               HU="HUF", TR="TRY", KR="KRW", SG="SGD")
    for land, w in cur.items():
        put(c, "T005", MANDT=M, LAND1=land, LANDK=land, LNPLZ="05", XEGLD="X" if w == "EUR" or land in ("PL", "CZ", "SE", "DK", "HU") else "", WAERS=w,
            SPRAS="D" if land in ("DE", "AT", "CH") else "E")
    for b, name, land in [("1000", "Muster AG", "DE"), ("2000", "Muster Inc.", "US"), ("3000", "Muster Ltd", "GB"), ("4000", "Muster GmbH", "AT")]:
        put(c, "T001", MANDT=M, BUKRS=b, BUTXT=name, LAND1=land, WAERS=cur[land], SPRAS="D" if land in ("DE", "AT") else "E", KTOPL="INT")
    for w, name, land in [("1000", "Werk Frankfurt", "DE"), ("1100", "Werk Hamburg", "DE"), ("1200", "Werk Dresden", "DE"), ("2000", "Plant Chicago", "US"),
                          ("2100", "Plant Dallas", "US"), ("3000", "Plant London", "GB"), ("4000", "Werk Wien", "AT")]:
        put(c, "T001W", MANDT=M, WERKS=w, NAME1=name, BWKEY=w, ORT01=name.split()[-1], LAND1=land, SPRAS="D" if land in ("DE", "AT") else "E")
    orgs = {"1000": ("EUR", "1000", ["1000", "1100", "1200"]), "1010": ("EUR", "1000", ["1000", "1200"]), "2000": ("USD", "2000", ["2000", "2100"]),
            "3000": ("GBP", "3000", ["3000"])}  # sales organisation: currency, company code, plants
    for v, (w, b, _) in orgs.items():
        put(c, "TVKO", MANDT=M, VKORG=v, WAERS=w, BUKRS=b, ADRNR=f"{rnd.randint(1, 99999):010d}")
    for a, t in [("TA", "C"), ("ZOR", "C"), ("SO", "C"), ("FD", "C"), ("KB", "C"), ("RE", "H"), ("KA", "C"), ("AG", "B"), ("AF", "A"), ("CR", "K")]:
        put(c, "TVAK", MANDT=M, AUART=a, VBTYP=t, NUMKI="01", NUMKE="02", KALVG="1", FKARV="F2" if t == "C" else "", LFARV="LF" if t == "C" else "")
    custs = []
    for i in range(1, 701):
        land = rnd.choices(list(cur), [40, 8, 5, 4, 3, 3, 3, 2, 2, 2, 10, 14] + [1] * 18)[0]
        custs.append((f"{100000 + i:010d}", "2000" if land in ("US", "CA", "MX") else "3000" if land in ("GB", "IE") else rnd.choice(["1000", "1000", "1010"])))
        put(c, "KNA1", MANDT=M, KUNNR=custs[-1][0], LAND1=land, NAME1=f"{rnd.choice(WORDS).title()} {rnd.choice(['GmbH', 'AG', 'Ltd', 'Inc.', 'S.A.'])}",
            ORT01=rnd.choice(WORDS).title(), PSTLZ=f"{rnd.randint(1000, 99999)}", STRAS=f"{rnd.choice(WORDS).title()}str. {rnd.randint(1, 99)}",
            TELF1=f"+{rnd.randint(10, 99)} {rnd.randint(100000, 9999999)}", KTOKD="0001", ERDAT=day(rnd.randint(T0 - 5 * 365 * 86400, T0)), ERNAM="MDM_LOAD",
            SPRAS="D" if land in ("DE", "AT", "CH") else "E", LOEVM="X" if rnd.random() < 0.02 else "", AUFSD="01" if rnd.random() < 0.03 else "")
    mats = {}
    for i in range(1, 451):
        m = f"{400000 + i:018d}" if i <= 420 else f"FG-{1000 + i}"  # alphanumeric material numbers are stored as they are
        typ = rnd.choices(["FERT", "HAWA", "HALB", "DIEN"], [50, 30, 15, 5])[0]
        mats[m] = ("H" if typ == "DIEN" else rnd.choice(["ST", "ST", "KG", "L", "PAK"]), f"{rnd.randint(1, 25):03d}", round(rnd.uniform(2, 900), 2),
                   f"{rnd.choice(WORDS).title()} {rnd.choice(WORDS)} {rnd.randint(10, 999)}")
        put(c, "MARA", MANDT=M, MATNR=m, ERSDA=day(rnd.randint(T0 - 3 * 365 * 86400, T0)), ERNAM="MDM_LOAD", LAEDA=day(rnd.randint(T0, NOW)), MTART=typ,
            MBRSH="M", MATKL=mats[m][1], MEINS=mats[m][0], BRGEW=round(rnd.uniform(0.1, 50), 3), NTGEW=round(rnd.uniform(0.1, 40), 3), GEWEI="KG",
            SPART=rnd.choice(["00", "10", "20"]))
        for lang in ["D", "E"] if rnd.random() < 0.8 else ["D"]:
            put(c, "MAKT", MANDT=M, MATNR=m, SPRAS=lang, MAKTX=mats[m][3] + " (EN)" * (lang == "E"), MAKTG=mats[m][3].upper())
    deliveries, bills = 0, 0
    for o in range(1, 1501):
        vbeln, (kunnr, org), t = f"{4970 + o:010d}", rnd.choice(custs), rnd.randint(T0, NOW - 30 * 86400)
        (waerk, bukrs, werks), auart, items = orgs[org], rnd.choices(["TA", "ZOR", "SO", "FD"], [70, 15, 10, 5])[0], []
        for k, m in enumerate(rnd.sample(list(mats), rnd.choices([1, 2, 3, 4, 5, 6], [30, 25, 20, 12, 8, 5])[0]), start=1):
            unit, grp, price, text = mats[m]
            qty = rnd.randint(1, 200) if unit != "KG" else round(rnd.uniform(1, 500), 3)
            items.append((f"{10 * k:06d}", m, qty, 0 if auart == "FD" else round(qty * price, 2), rnd.choice(werks), "02" if rnd.random() < 0.04 else ""))
            put(c, "VBAP", MANDT=M, VBELN=vbeln, POSNR=items[-1][0], MATNR=m, MATKL=grp, ARKTX=text, PSTYV="KLN" if auart == "FD" else "TAN",
                ABGRU=items[-1][5], KWMENG=qty, VRKME=unit, NETPR=0 if auart == "FD" else price, NETWR=items[-1][3], WAERK=waerk, WERKS=items[-1][4],
                LGORT="0001", ERDAT=day(t))
        shipped = [it for it in items if not it[5]] if rnd.random() < 0.9 else []  # a rejected item (ABGRU) is not delivered
        put(c, "VBAK", MANDT=M, VBELN=vbeln, ERDAT=day(t), ERZET=stamp(t, "%H%M%S"), ERNAM=rnd.choice(["MMUELLER", "JSMITH", "SD_EDI", "KWEBER"]),
            AUDAT=day(t), VBTYP="C", AUART=auart, NETWR=round(sum(it[3] for it in items), 2), WAERK=waerk, VKORG=org, VTWEG="10", SPART="00",
            VKBUR=org[:2] + "10", KUNNR=kunnr, BSTNK=f"PO-{rnd.randint(10000, 99999)}" if rnd.random() < 0.7 else "", GBSTK="C" if shipped else "A")
        half = len(shipped) // 2 if len(shipped) > 1 and rnd.random() < 0.1 else 0
        for part in [p for p in (shipped[:half], shipped[half:]) if p]:  # one delivery, or two for a split order
            deliveries += 1
            lv, td, billed = f"{80000000 + deliveries:010d}", t + rnd.randint(86400, 20 * 86400), rnd.random() < 0.9
            put(c, "LIKP", MANDT=M, VBELN=lv, ERDAT=day(td), ERNAM="SD_BATCH", LFART="LF", VBTYP="J", VSTEL=part[0][4], VKORG=org, LFDAT=day(td),
                WADAT_IST=day(td + 86400), KUNNR=kunnr if rnd.random() < 0.9 else rnd.choice(custs)[0], KUNAG=kunnr, BTGEW=round(rnd.uniform(1, 900), 3),
                GEWEI="KG", ANZPK=f"{rnd.randint(1, 40):05d}")
            if billed:
                bills += 1
                bv, net = f"{90000000 + bills:010d}", round(sum(it[3] for it in part), 2)
                put(c, "VBRK", MANDT=M, VBELN=bv, FKART="F2", FKTYP="L", VBTYP="M", WAERK=waerk, VKORG=org, VTWEG="10", FKDAT=day(td + 2 * 86400),
                    BUKRS=bukrs, NETWR=net, MWSBK=round(net * 0.19, 2), KUNRG=kunnr if rnd.random() < 0.9 else rnd.choice(custs)[0], KUNAG=kunnr,
                    ZTERM=rnd.choice(["0001", "ZB30", "NT60"]), RFBSK="C", ERNAM="SD_BATCH", ERDAT=day(td + 2 * 86400))
            for k, (pos, m, qty, net, w, _) in enumerate(part, start=1):
                lp = f"{10 * k:06d}"
                put(c, "LIPS", MANDT=M, VBELN=lv, POSNR=lp, PSTYV="TAN", MATNR=m, WERKS=w, LGORT="0001", CHARG=f"B{rnd.randint(1, 99999):09d}" * (rnd.random() < 0.3),
                    LFIMG=qty, VRKME=mats[m][0], ARKTX=mats[m][3], VGBEL=vbeln, VGPOS=pos, VGTYP="C", ERDAT=day(td))
                if billed:
                    put(c, "VBRP", MANDT=M, VBELN=bv, POSNR=lp, FKIMG=qty, VRKME=mats[m][0], NETWR=net, MATNR=m, ARKTX=mats[m][3], WERKS=w, AUBEL=vbeln,
                        AUPOS=pos, VGBEL=lv, VGPOS=lp, VGTYP="J", PSTYV="TAN", ERDAT=day(td + 2 * 86400))
    c.commit()
    return c, [
        ("T001", "MANDT,LAND1", "T005", "MANDT,LAND1", False), ("T001W", "MANDT,LAND1", "T005", "MANDT,LAND1", False),
        ("TVKO", "MANDT,BUKRS", "T001", "MANDT,BUKRS", False), ("KNA1", "MANDT,LAND1", "T005", "MANDT,LAND1", False),
        ("MAKT", "MANDT,MATNR", "MARA", "MANDT,MATNR", False), ("VBAK", "MANDT,KUNNR", "KNA1", "MANDT,KUNNR", False),
        ("VBAK", "MANDT,VKORG", "TVKO", "MANDT,VKORG", False), ("VBAK", "MANDT,AUART", "TVAK", "MANDT,AUART", False),
        ("VBAP", "MANDT,VBELN", "VBAK", "MANDT,VBELN", False), ("VBAP", "MANDT,MATNR", "MARA", "MANDT,MATNR", False),
        ("VBAP", "MANDT,WERKS", "T001W", "MANDT,WERKS", False), ("LIKP", "MANDT,KUNNR", "KNA1", "MANDT,KUNNR", False),
        ("LIKP", "MANDT,KUNAG", "KNA1", "MANDT,KUNNR", False), ("LIKP", "MANDT,VKORG", "TVKO", "MANDT,VKORG", False),
        ("LIPS", "MANDT,VBELN", "LIKP", "MANDT,VBELN", False), ("LIPS", "MANDT,MATNR", "MARA", "MANDT,MATNR", False),
        ("LIPS", "MANDT,WERKS", "T001W", "MANDT,WERKS", False), ("LIPS", "MANDT,VGBEL,VGPOS", "VBAP", "MANDT,VBELN,POSNR", False),
        ("VBRK", "MANDT,KUNAG", "KNA1", "MANDT,KUNNR", False), ("VBRK", "MANDT,KUNRG", "KNA1", "MANDT,KUNNR", False),
        ("VBRK", "MANDT,VKORG", "TVKO", "MANDT,VKORG", False), ("VBRK", "MANDT,BUKRS", "T001", "MANDT,BUKRS", False),
        ("VBRP", "MANDT,VBELN", "VBRK", "MANDT,VBELN", False), ("VBRP", "MANDT,MATNR", "MARA", "MANDT,MATNR", False),
        ("VBRP", "MANDT,WERKS", "T001W", "MANDT,WERKS", False), ("VBRP", "MANDT,AUBEL,AUPOS", "VBAP", "MANDT,VBELN,POSNR", False),
        ("VBRP", "MANDT,VGBEL", "LIKP", "MANDT,VBELN", False),
    ]


def rails(path):
    rnd = random.Random(23)
    c = sqlite3.connect(path)
    ID, TS = '"id" integer PRIMARY KEY AUTOINCREMENT NOT NULL', '"created_at" datetime(6) NOT NULL, "updated_at" datetime(6) NOT NULL'
    c.executescript(f"""
    CREATE TABLE "schema_migrations" ("version" varchar NOT NULL PRIMARY KEY);
    CREATE TABLE "ar_internal_metadata" ("key" varchar NOT NULL PRIMARY KEY, "value" varchar, {TS});
    CREATE TABLE "users" ({ID}, "email" varchar DEFAULT '' NOT NULL, "encrypted_password" varchar DEFAULT '' NOT NULL, "name" varchar,
        "reset_password_token" varchar, "sign_in_count" integer DEFAULT 0 NOT NULL, "current_sign_in_at" datetime(6), "last_sign_in_ip" varchar,
        "admin" boolean DEFAULT 0 NOT NULL, {TS});
    CREATE UNIQUE INDEX "index_users_on_email" ON "users" ("email");
    CREATE UNIQUE INDEX "index_users_on_reset_password_token" ON "users" ("reset_password_token");
    CREATE TABLE "accounts" ({ID}, "name" varchar NOT NULL, "owner_id" integer NOT NULL, "plan" integer DEFAULT 0 NOT NULL,
        "projects_count" integer DEFAULT 0 NOT NULL, {TS});
    CREATE TABLE "memberships" ({ID}, "account_id" integer NOT NULL, "user_id" integer NOT NULL, "role" integer DEFAULT 0 NOT NULL, {TS});
    CREATE UNIQUE INDEX "index_memberships_on_account_id_and_user_id" ON "memberships" ("account_id", "user_id");
    CREATE TABLE "categories" ({ID}, "name" varchar NOT NULL, "parent_id" integer, "position" integer, {TS});
    CREATE TABLE "projects" ({ID}, "account_id" integer NOT NULL, "category_id" integer, "name" varchar NOT NULL, "description" text,
        "archived" boolean DEFAULT 0 NOT NULL, "issues_count" integer DEFAULT 0 NOT NULL, {TS});
    CREATE TABLE "statuses" ({ID}, "name" varchar NOT NULL, "position" integer NOT NULL, "closed" boolean DEFAULT 0 NOT NULL, {TS});
    CREATE TABLE "issues" ({ID}, "project_id" integer NOT NULL, "author_id" integer NOT NULL, "assignee_id" integer, "status_id" integer NOT NULL,
        "number" integer NOT NULL, "title" varchar NOT NULL, "body" text, "priority" integer DEFAULT 1 NOT NULL, "comments_count" integer DEFAULT 0 NOT NULL,
        "due_on" date, "closed_at" datetime(6), {TS});
    CREATE UNIQUE INDEX "index_issues_on_project_id_and_number" ON "issues" ("project_id", "number");
    CREATE TABLE "comments" ({ID}, "commentable_type" varchar NOT NULL, "commentable_id" integer NOT NULL, "user_id" integer NOT NULL,
        "body" text NOT NULL, {TS});
    CREATE TABLE "tags" ({ID}, "name" varchar, "taggings_count" integer DEFAULT 0, "created_at" datetime, "updated_at" datetime);
    CREATE UNIQUE INDEX "index_tags_on_name" ON "tags" ("name");
    CREATE TABLE "taggings" ({ID}, "tag_id" integer, "taggable_type" varchar, "taggable_id" integer, "tagger_type" varchar, "tagger_id" integer,
        "context" varchar(128), "created_at" datetime, "tenant" varchar(128));
    CREATE UNIQUE INDEX "taggings_idx" ON "taggings" ("tag_id", "taggable_id", "taggable_type", "context", "tagger_id", "tagger_type");
    CREATE TABLE "people" ({ID}, "user_id" integer, "first_name" varchar, "last_name" varchar, "birthday" date, {TS});
    CREATE UNIQUE INDEX "index_people_on_user_id" ON "people" ("user_id");
    CREATE TABLE "addresses" ({ID}, "person_id" integer NOT NULL, "kind" integer DEFAULT 0 NOT NULL, "street" varchar, "city" varchar,
        "zip" varchar, "country_code" varchar(2), {TS});
    CREATE TABLE "active_storage_blobs" ({ID}, "key" varchar NOT NULL, "filename" varchar NOT NULL, "content_type" varchar, "metadata" text,
        "service_name" varchar NOT NULL, "byte_size" bigint NOT NULL, "checksum" varchar, "created_at" datetime(6) NOT NULL);
    CREATE UNIQUE INDEX "index_active_storage_blobs_on_key" ON "active_storage_blobs" ("key");
    CREATE TABLE "active_storage_attachments" ({ID}, "name" varchar NOT NULL, "record_type" varchar NOT NULL, "record_id" bigint NOT NULL,
        "blob_id" bigint NOT NULL, "created_at" datetime(6) NOT NULL);
    CREATE UNIQUE INDEX "index_active_storage_attachments_uniqueness" ON "active_storage_attachments" ("record_type", "record_id", "name", "blob_id");
    CREATE TABLE "active_storage_variant_records" ({ID}, "blob_id" bigint NOT NULL, "variation_digest" varchar NOT NULL);
    CREATE UNIQUE INDEX "index_active_storage_variant_records_uniqueness" ON "active_storage_variant_records" ("blob_id", "variation_digest");
    """)

    def at(lo=T0, hi=NOW):
        return stamp(rnd.randint(lo, hi), "%Y-%m-%d %H:%M:%S") + f".{rnd.randint(0, 999999):06d}"

    def words(n):
        return " ".join(rnd.choices(WORDS, k=n))

    for i in range(24):
        put(c, "schema_migrations", version=stamp(T0 - 400 * 86400 + i * 17 * 86400 + rnd.randint(0, 86400)))
    put(c, "ar_internal_metadata", key="environment", value="production", created_at=at(T0, T0), updated_at=at(T0, T0))
    NU, NI, NP, members, acct, number = 400, 3000, 250, {}, {}, {}
    for u in range(1, NU + 1):
        put(c, "users", id=u, email=f"user{u}@example.com", encrypted_password="$2a$12$" + str(rnd.getrandbits(128)), name=f"{words(1).title()} {u}",
            reset_password_token=hashlib.md5(str(u).encode()).hexdigest() if rnd.random() < 0.1 else None, sign_in_count=rnd.randint(0, 300),
            current_sign_in_at=at() if rnd.random() < 0.8 else None, last_sign_in_ip=f"203.0.113.{rnd.randint(1, 254)}", admin=int(u <= 3),
            created_at=at(), updated_at=at())
    for a in range(1, 61):  # an account's owner is its first member; role is an enum: 0 member, 1 admin, 2 owner
        owner = rnd.randint(1, NU)
        put(c, "accounts", id=a, name=f"{words(1).title()} Inc", owner_id=owner, plan=rnd.choice([0, 0, 1, 2]), created_at=at(), updated_at=at())
        members[a] = [owner] + [u for u in rnd.sample(range(1, NU + 1), rnd.randint(2, 14)) if u != owner]
        for k, u in enumerate(members[a]):
            put(c, "memberships", account_id=a, user_id=u, role=2 if k == 0 else rnd.choice([0, 0, 0, 1]), created_at=at(), updated_at=at())
    for k in range(1, 41):
        put(c, "categories", id=k, name=words(1).title(), parent_id=None if k <= 8 else rnd.randint(1, k - 1), position=rnd.randint(1, 10),
            created_at=at(), updated_at=at())
    for k, n in enumerate(["open", "in_progress", "review", "blocked", "resolved", "closed"], start=1):
        put(c, "statuses", id=k, name=n, position=k, closed=int(k >= 5), created_at=at(T0, T0), updated_at=at(T0, T0))
    for p in range(1, NP + 1):
        acct[p] = rnd.randint(1, 60)
        put(c, "projects", id=p, account_id=acct[p], category_id=rnd.randint(1, 40) if rnd.random() < 0.7 else None, name=f"{words(1).title()} {p}",
            description="", archived=int(rnd.random() < 0.1), created_at=at(), updated_at=at())
    for i in range(1, NI + 1):  # number counts a project's issues
        p, st, t = rnd.randint(1, NP), rnd.choices(range(1, 7), [30, 20, 10, 5, 15, 20])[0], rnd.randint(T0, NOW)
        number[p] = number.get(p, 0) + 1
        acct[("Issue", i)] = acct[p]
        put(c, "issues", id=i, project_id=p, author_id=rnd.choice(members[acct[p]]), assignee_id=rnd.choice(members[acct[p]]) if rnd.random() < 0.65 else None,
            status_id=st, number=number[p], title=words(5), body="", priority=rnd.randint(0, 3), due_on=stamp(t + rnd.randint(0, 90) * 86400, "%Y-%m-%d")
            if rnd.random() < 0.3 else None, closed_at=at(t) if st >= 5 else None, created_at=at(t, t), updated_at=at(t))
    for _ in range(4500):  # polymorphic: a comment on an issue or a project
        typ, n = ("Issue", NI) if rnd.random() < 0.85 else ("Project", NP)
        rid = rnd.randint(1, n)
        put(c, "comments", commentable_type=typ, commentable_id=rid, user_id=rnd.choice(members[acct[(typ, rid)] if typ == "Issue" else acct[rid]]),
            body=words(12), created_at=at(), updated_at=at())
    for k in range(1, 81):
        put(c, "tags", id=k, name=f"{words(1)}-{k}", created_at=at(), updated_at=at())
    for _ in range(3500):
        typ, n = ("Issue", NI) if rnd.random() < 0.8 else ("Project", NP)
        tagger = rnd.randint(1, NU) if rnd.random() < 0.1 else None
        c.execute("INSERT OR IGNORE INTO taggings (tag_id, taggable_type, taggable_id, tagger_type, tagger_id, context, created_at) VALUES (?,?,?,?,?,?,?)",
                  (rnd.randint(1, 80), typ, rnd.randint(1, n), "User" if tagger else None, tagger, "tags", at()[:19]))
    for sql in ["UPDATE issues SET comments_count = (SELECT count(*) FROM comments WHERE commentable_type = 'Issue' AND commentable_id = issues.id)",
                "UPDATE projects SET issues_count = (SELECT count(*) FROM issues WHERE project_id = projects.id)",
                "UPDATE accounts SET projects_count = (SELECT count(*) FROM projects WHERE account_id = accounts.id)",
                "UPDATE tags SET taggings_count = (SELECT count(*) FROM taggings WHERE tag_id = tags.id)"]:
        c.execute(sql)
    linked = iter(rnd.sample(range(1, NU + 1), 400))
    for p in range(1, 501):
        put(c, "people", id=p, user_id=next(linked) if p % 5 and rnd.random() < 0.75 else None, first_name=rnd.choice(["Ada", "Ben", "Cy", "Di"]),
            last_name=words(1).title(), birthday=stamp(rnd.randint(-600_000_000, 900_000_000), "%Y-%m-%d") if rnd.random() < 0.5 else None,
            created_at=at(), updated_at=at())
    for _ in range(800):
        put(c, "addresses", person_id=rnd.randint(1, 500), kind=rnd.choice([0, 0, 1, 2]), street=f"{rnd.randint(1, 999)} {words(1).title()} St",
            city=words(1).title(), zip=f"{rnd.randint(10000, 99999)}", country_code=rnd.choice(["US", "US", "CA", "GB"]), created_at=at(), updated_at=at())
    avatars = iter(rnd.sample(range(1, NU + 1), 250))
    for b in range(1, 901):
        image, r, s = rnd.random() < 0.6, rnd.random(), at()
        put(c, "active_storage_blobs", id=b, key="".join(rnd.choices("abcdefghijklmnopqrstuvwxyz0123456789", k=28)), filename=f"file{b}." + ("png" if image else "pdf"),
            content_type="image/png" if image else "application/pdf", metadata='{"identified":true,"analyzed":true}',
            service_name=rnd.choice(["amazon", "amazon", "local"]), byte_size=rnd.randint(1000, 9_000_000), checksum=hashlib.md5(str(b).encode()).hexdigest(), created_at=s)
        if r >= 0.05:  # else a direct upload never attached
            rec = ("User", next(avatars), "avatar") if image and r < 0.3 else ("Issue", rnd.randint(1, NI), "files") if r < 0.85 else ("Comment", rnd.randint(1, 4500), "files")
            put(c, "active_storage_attachments", name=rec[2], record_type=rec[0], record_id=rec[1], blob_id=b, created_at=s)
        for v in rnd.sample(["thumb", "medium", "large"], rnd.randint(0, 2)) if image else []:
            put(c, "active_storage_variant_records", blob_id=b, variation_digest=hashlib.sha1(f"{b}{v}".encode()).hexdigest()[:28])
    c.commit()
    return c, [
        ("accounts", "owner_id", "users", "id", False), ("memberships", "account_id", "accounts", "id", False),
        ("memberships", "user_id", "users", "id", False), ("projects", "account_id", "accounts", "id", False),
        ("projects", "category_id", "categories", "id", False), ("issues", "project_id", "projects", "id", False),
        ("issues", "author_id", "users", "id", False), ("issues", "assignee_id", "users", "id", False), ("issues", "status_id", "statuses", "id", False),
        ("comments", "user_id", "users", "id", False), ("taggings", "tag_id", "tags", "id", False), ("categories", "parent_id", "categories", "id", False),
        ("people", "user_id", "users", "id", False), ("addresses", "person_id", "people", "id", False),
        ("active_storage_attachments", "blob_id", "active_storage_blobs", "id", False),
        ("active_storage_variant_records", "blob_id", "active_storage_blobs", "id", False),
    ]


if __name__ == "__main__":
    appsets.main([("mediawiki", mediawiki), ("moodle", moodle), ("sap", sap), ("rails", rails)])
