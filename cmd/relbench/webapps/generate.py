#!/usr/bin/env python3
"""Builds relbench's web-application databases: the schemas of two widely
deployed content-management systems, which declare no foreign keys, filled
with invented data (Python's standard library only, a fixed seed).

- wordpress: WordPress's core tables (wp_ on every table; most columns carry
  the word the table's rows are called: post_author, post_parent,
  comment_post_ID; NOT NULL DEFAULT 0 where a reference may point nowhere:
  post_parent, comment_parent, a guest's comments.user_id; three metadata
  tables each numbering meta_id from 1).
- drupal: Drupal 7's core tables (keys abbreviated to a letter and id: nid,
  uid, tid, vid, fid; vid names both a node revision and a vocabulary; a
  comment's parent pid, a menu link's parent plid, a term's parent; user 0
  is the anonymous user's row).

- django: a Django project's tables (auth_, django_ and an application's
  shop_ before every table name; id keys, <name>_id references, a
  many-to-many table, created_by_id and author_id naming users).
- tienda: a shop in Spanish (id_ before every key, id_cliente; roles in
  Spanish: id_jefe, id_vendedor, id_categoria_padre).

The truth is each application's documented relations (WordPress's database
description, Drupal's hook_schema "foreign keys"), checked against the data
as shared/'s FK_CHECK.tsv is, with one difference: where the application
writes 0 for "none", rows holding 0 count as NULL.

    generate.py OUT_DIR
    go run ./cmd/relbench -datasets OUT_DIR -v
"""
import os
import random
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import appsets  # noqa: E402 (relbench's shared check and writer)

T0 = 1_420_070_400  # 2015-01-01, seconds


def wordpress(path):
    rnd = random.Random(7)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE wp_users (ID INTEGER PRIMARY KEY, user_login TEXT, user_pass TEXT, user_nicename TEXT, user_email TEXT,
        user_url TEXT, user_registered TEXT, user_activation_key TEXT, user_status INTEGER, display_name TEXT);
    CREATE TABLE wp_usermeta (umeta_id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL DEFAULT 0, meta_key TEXT, meta_value TEXT);
    CREATE TABLE wp_posts (ID INTEGER PRIMARY KEY, post_author INTEGER NOT NULL DEFAULT 0, post_date TEXT, post_date_gmt TEXT,
        post_content TEXT, post_title TEXT, post_excerpt TEXT, post_status TEXT, comment_status TEXT, ping_status TEXT,
        post_password TEXT, post_name TEXT, to_ping TEXT, pinged TEXT, post_modified TEXT, post_modified_gmt TEXT,
        post_content_filtered TEXT, post_parent INTEGER NOT NULL DEFAULT 0, guid TEXT, menu_order INTEGER, post_type TEXT,
        post_mime_type TEXT, comment_count INTEGER);
    CREATE TABLE wp_postmeta (meta_id INTEGER PRIMARY KEY, post_id INTEGER NOT NULL DEFAULT 0, meta_key TEXT, meta_value TEXT);
    CREATE TABLE wp_comments (comment_ID INTEGER PRIMARY KEY, comment_post_ID INTEGER NOT NULL DEFAULT 0, comment_author TEXT,
        comment_author_email TEXT, comment_author_url TEXT, comment_author_IP TEXT, comment_date TEXT, comment_date_gmt TEXT,
        comment_content TEXT, comment_karma INTEGER, comment_approved TEXT, comment_agent TEXT, comment_type TEXT,
        comment_parent INTEGER NOT NULL DEFAULT 0, user_id INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE wp_commentmeta (meta_id INTEGER PRIMARY KEY, comment_id INTEGER NOT NULL DEFAULT 0, meta_key TEXT, meta_value TEXT);
    CREATE TABLE wp_terms (term_id INTEGER PRIMARY KEY, name TEXT, slug TEXT, term_group INTEGER);
    CREATE TABLE wp_term_taxonomy (term_taxonomy_id INTEGER PRIMARY KEY, term_id INTEGER NOT NULL DEFAULT 0, taxonomy TEXT,
        description TEXT, parent INTEGER NOT NULL DEFAULT 0, count INTEGER);
    CREATE TABLE wp_term_relationships (object_id INTEGER NOT NULL DEFAULT 0, term_taxonomy_id INTEGER NOT NULL DEFAULT 0,
        term_order INTEGER, PRIMARY KEY (object_id, term_taxonomy_id));
    CREATE TABLE wp_termmeta (meta_id INTEGER PRIMARY KEY, term_id INTEGER NOT NULL DEFAULT 0, meta_key TEXT, meta_value TEXT);
    CREATE TABLE wp_options (option_id INTEGER PRIMARY KEY, option_name TEXT UNIQUE, option_value TEXT, autoload TEXT);
    CREATE TABLE wp_links (link_id INTEGER PRIMARY KEY, link_url TEXT, link_name TEXT, link_image TEXT, link_target TEXT,
        link_description TEXT, link_visible TEXT, link_owner INTEGER NOT NULL DEFAULT 1, link_rating INTEGER,
        link_updated TEXT, link_rel TEXT, link_notes TEXT, link_rss TEXT);
    """)
    words = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et "
             "dolore magna aliqua").split()

    def txt(n):
        return " ".join(rnd.choice(words) for _ in range(n))

    def ts():
        import datetime
        return datetime.datetime.fromtimestamp(T0 + rnd.randint(0, 9 * 365 * 86400), datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")

    users = 60
    for i in range(1, users + 1):
        name = f"user{i}"
        c.execute("INSERT INTO wp_users VALUES (?,?,?,?,?,?,?,?,?,?)",
                  (i, name, "$P$B" + str(rnd.getrandbits(60)), name, f"{name}@example.org", "", ts(), "", 0, f"User {i}"))
        for k in ["nickname", "first_name", "last_name", "wp_capabilities", "wp_user_level", "show_admin_bar_front"]:
            c.execute("INSERT INTO wp_usermeta (user_id, meta_key, meta_value) VALUES (?,?,?)", (i, k, txt(1)))
    authors = list(range(1, 9))
    kinds = []
    for i in range(1, 901):
        typ = rnd.choices(["post", "page", "attachment", "revision", "nav_menu_item"], [50, 5, 25, 15, 5])[0]
        parent = 0
        if typ in ("attachment", "revision"):
            cand = [j for j, k in enumerate(kinds, start=1) if k in ("post", "page")]
            parent = rnd.choice(cand) if cand else 0
            if typ == "attachment" and rnd.random() < 0.3:
                parent = 0
        kinds.append(typ)
        d = ts()
        c.execute("INSERT INTO wp_posts VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (i, rnd.choice(authors), d, d, txt(80), txt(5).title(), "", rnd.choice(["publish", "publish", "draft", "inherit"]),
                   "open", "open", "", f"post-{i}", "", "", d, d, "", parent, f"http://example.org/?p={i}", 0, typ,
                   "image/jpeg" if typ == "attachment" else "", 0))
        for k in rnd.sample(["_edit_lock", "_edit_last", "_thumbnail_id", "_wp_page_template", "_menu_item_type", "_wp_attached_file"],
                            rnd.randint(0, 4)):
            c.execute("INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES (?,?,?)", (i, k, txt(1)))
    posts = [i for i, k in enumerate(kinds, start=1) if k == "post"]
    for cid in range(1, 2501):
        uid = rnd.randint(1, users) if rnd.random() < 0.3 else 0  # a guest's comment: 0
        par = rnd.randint(1, cid - 1) if cid > 1 and rnd.random() < 0.25 else 0
        c.execute("INSERT INTO wp_comments VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (cid, rnd.choice(posts), "Guest " + str(rnd.randint(1, 999)), f"g{rnd.randint(1, 999)}@mail.test", "",
                   f"10.0.{rnd.randint(0, 255)}.{rnd.randint(1, 254)}", ts(), ts(), txt(30), 0, rnd.choice(["1", "1", "0", "spam"]),
                   "Mozilla/5.0", "comment", par, uid))
        if rnd.random() < 0.2:
            c.execute("INSERT INTO wp_commentmeta (comment_id, meta_key, meta_value) VALUES (?,?,?)", (cid, "akismet_result", "false"))
    terms = 80
    for i in range(1, terms + 1):
        c.execute("INSERT INTO wp_terms VALUES (?,?,?,0)", (i, txt(2).title(), f"term-{i}"))
        tax = "category" if i <= 20 else ("post_tag" if i <= 75 else "nav_menu")
        parent = rnd.randint(1, i - 1) if tax == "category" and i > 3 and rnd.random() < 0.4 else 0
        c.execute("INSERT INTO wp_term_taxonomy VALUES (?,?,?,?,?,0)", (i, i, tax, "", parent))
        if rnd.random() < 0.3:
            c.execute("INSERT INTO wp_termmeta (term_id, meta_key, meta_value) VALUES (?,?,?)", (i, "color", rnd.choice(["red", "blue"])))
    for p in posts + [i for i, k in enumerate(kinds, start=1) if k == "nav_menu_item"]:
        for tt in rnd.sample(range(1, terms + 1), rnd.randint(1, 4)):
            c.execute("INSERT OR IGNORE INTO wp_term_relationships VALUES (?,?,0)", (p, tt))
    for i in range(1, 300):
        c.execute("INSERT INTO wp_options (option_name, option_value, autoload) VALUES (?,?,?)",
                  (f"option_{i}_{txt(1)}", txt(3), rnd.choice(["yes", "no"])))
    for i in range(1, 15):
        c.execute("INSERT INTO wp_links (link_url, link_name, link_visible, link_owner, link_rating) VALUES (?,?,?,?,0)",
                  (f"http://l{i}.test", txt(2), "Y", rnd.choice(authors[:3])))
    c.commit()
    # child, columns, parent, columns, 0 stands for none
    return c, [
        ("wp_usermeta", "user_id", "wp_users", "ID", False),
        ("wp_posts", "post_author", "wp_users", "ID", False),
        ("wp_posts", "post_parent", "wp_posts", "ID", True),
        ("wp_postmeta", "post_id", "wp_posts", "ID", False),
        ("wp_comments", "comment_post_ID", "wp_posts", "ID", False),
        ("wp_comments", "comment_parent", "wp_comments", "comment_ID", True),
        ("wp_comments", "user_id", "wp_users", "ID", True),
        ("wp_commentmeta", "comment_id", "wp_comments", "comment_ID", False),
        ("wp_term_taxonomy", "term_id", "wp_terms", "term_id", False),
        ("wp_term_taxonomy", "parent", "wp_terms", "term_id", True),
        ("wp_term_relationships", "term_taxonomy_id", "wp_term_taxonomy", "term_taxonomy_id", False),
        ("wp_term_relationships", "object_id", "wp_posts", "ID", False),
        ("wp_termmeta", "term_id", "wp_terms", "term_id", False),
        ("wp_links", "link_owner", "wp_users", "ID", False),
    ]


def drupal(path):
    rnd = random.Random(11)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE users (uid INTEGER PRIMARY KEY, name TEXT, pass TEXT, mail TEXT, created INTEGER, access INTEGER, login INTEGER,
        status INTEGER, timezone TEXT, language TEXT, picture INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE role (rid INTEGER PRIMARY KEY, name TEXT, weight INTEGER);
    CREATE TABLE users_roles (uid INTEGER NOT NULL, rid INTEGER NOT NULL, PRIMARY KEY (uid, rid));
    CREATE TABLE node (nid INTEGER PRIMARY KEY, vid INTEGER, type TEXT, language TEXT, title TEXT, uid INTEGER, status INTEGER,
        created INTEGER, changed INTEGER, comment INTEGER, promote INTEGER, sticky INTEGER, tnid INTEGER NOT NULL DEFAULT 0,
        translate INTEGER);
    CREATE TABLE node_revision (nid INTEGER NOT NULL DEFAULT 0, vid INTEGER PRIMARY KEY, uid INTEGER NOT NULL DEFAULT 0, title TEXT,
        log TEXT, timestamp INTEGER, status INTEGER, comment INTEGER, promote INTEGER, sticky INTEGER);
    CREATE TABLE comment (cid INTEGER PRIMARY KEY, pid INTEGER NOT NULL DEFAULT 0, nid INTEGER NOT NULL DEFAULT 0,
        uid INTEGER NOT NULL DEFAULT 0, subject TEXT, hostname TEXT, created INTEGER, changed INTEGER, status INTEGER,
        thread TEXT, name TEXT, mail TEXT, homepage TEXT, language TEXT);
    CREATE TABLE taxonomy_vocabulary (vid INTEGER PRIMARY KEY, name TEXT, machine_name TEXT, description TEXT, hierarchy INTEGER,
        module TEXT, weight INTEGER);
    CREATE TABLE taxonomy_term_data (tid INTEGER PRIMARY KEY, vid INTEGER NOT NULL DEFAULT 0, name TEXT, description TEXT,
        format TEXT, weight INTEGER);
    CREATE TABLE taxonomy_term_hierarchy (tid INTEGER NOT NULL DEFAULT 0, parent INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (tid, parent));
    CREATE TABLE taxonomy_index (nid INTEGER NOT NULL DEFAULT 0, tid INTEGER NOT NULL DEFAULT 0, sticky INTEGER, created INTEGER);
    CREATE TABLE file_managed (fid INTEGER PRIMARY KEY, uid INTEGER NOT NULL DEFAULT 0, filename TEXT, uri TEXT, filemime TEXT,
        filesize INTEGER, status INTEGER, timestamp INTEGER);
    CREATE TABLE file_usage (fid INTEGER NOT NULL, module TEXT, type TEXT, id INTEGER NOT NULL DEFAULT 0, count INTEGER,
        PRIMARY KEY (fid, type, id, module));
    CREATE TABLE field_data_body (entity_type TEXT, bundle TEXT, deleted INTEGER, entity_id INTEGER, revision_id INTEGER,
        language TEXT, delta INTEGER, body_value TEXT, body_summary TEXT, body_format TEXT,
        PRIMARY KEY (entity_type, entity_id, deleted, delta, language));
    CREATE TABLE menu_links (menu_name TEXT, mlid INTEGER PRIMARY KEY, plid INTEGER NOT NULL DEFAULT 0, link_path TEXT,
        router_path TEXT, link_title TEXT, weight INTEGER, depth INTEGER);
    """)

    def when():
        return T0 + rnd.randint(0, 6 * 365 * 86400)

    users = 150
    c.execute("INSERT INTO users VALUES (0,'','','',0,0,0,0,NULL,'',0)")  # the anonymous user
    for u in range(1, users + 1):
        t = when()
        c.execute("INSERT INTO users VALUES (?,?,?,?,?,?,?,?,?,?,0)",
                  (u, f"user{u}", "$S$D" + str(rnd.getrandbits(50)), f"user{u}@example.com", t, t + rnd.randint(0, 9999999),
                   t + rnd.randint(0, 9999999), 1, "Europe/Berlin", "en"))
    for r, n in [(1, "anonymous user"), (2, "authenticated user"), (3, "administrator"), (4, "editor")]:
        c.execute("INSERT INTO role VALUES (?,?,?)", (r, n, r))
    for u in range(1, users + 1):
        for r in rnd.sample([3, 4], rnd.randint(0, 1)):
            c.execute("INSERT INTO users_roles VALUES (?,?)", (u, r))
    vid, nodes = 0, 700
    for n in range(1, nodes + 1):
        author = rnd.randint(1, 30)
        created = when()
        for _ in range(rnd.randint(1, 3)):
            vid += 1
            c.execute("INSERT INTO node_revision VALUES (?,?,?,?,?,?,?,?,?,?)",
                      (n, vid, rnd.choice([author, rnd.randint(1, 30)]), f"Title {n}", "", created + rnd.randint(0, 999999), 1, 2, 0, 0))
        c.execute("INSERT INTO node VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (n, vid, rnd.choice(["article", "page", "article"]), "en", f"Title {n}", author, 1, created,
                   created + rnd.randint(0, 999999), 2, 1, 0, 0, 0))
    for cid in range(1, 2201):
        uid = rnd.randint(1, users) if rnd.random() < 0.6 else 0  # anonymous: user 0, a row of users
        pid = rnd.randint(1, cid - 1) if cid > 1 and rnd.random() < 0.3 else 0
        t = when()
        c.execute("INSERT INTO comment VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (cid, pid, rnd.randint(1, nodes), uid, "Re: x", f"10.1.{rnd.randint(0, 255)}.{rnd.randint(1, 254)}", t, t, 1,
                   "01/", f"user{uid}" if uid else "guest", "", "", "en"))
    for v, (n, m) in enumerate([("Tags", "tags"), ("Forums", "forums"), ("Sections", "sections")], start=1):
        c.execute("INSERT INTO taxonomy_vocabulary VALUES (?,?,?,?,?,?,?)", (v, n, m, "", 0, "taxonomy", 0))
    terms = 120
    for t in range(1, terms + 1):
        v = 1 if t <= 90 else (2 if t <= 110 else 3)
        c.execute("INSERT INTO taxonomy_term_data VALUES (?,?,?,?,?,?)", (t, v, f"term {t}", "", "plain_text", 0))
        par = rnd.randint(91, t - 1) if v == 2 and t > 92 and rnd.random() < 0.5 else 0
        c.execute("INSERT INTO taxonomy_term_hierarchy VALUES (?,?)", (t, par))
    for n in range(1, nodes + 1):
        for t in rnd.sample(range(1, terms + 1), rnd.randint(0, 3)):
            c.execute("INSERT INTO taxonomy_index VALUES (?,?,0,?)", (n, t, when()))
    for f in range(1, 301):
        c.execute("INSERT INTO file_managed VALUES (?,?,?,?,?,?,?,?)",
                  (f, rnd.randint(1, 30), f"img{f}.jpg", f"public://img{f}.jpg", "image/jpeg", rnd.randint(1000, 900000), 1, when()))
        c.execute("INSERT INTO file_usage VALUES (?,?,?,?,1)", (f, "file", "node", rnd.randint(1, nodes)))
    for n in range(1, nodes + 1):
        c.execute("INSERT INTO field_data_body VALUES (?,?,?,?,?,?,?,?,?,?)",
                  ("node", "article", 0, n, None, "und", 0, "body of " + str(n), "", "filtered_html"))
    c.execute("UPDATE field_data_body SET revision_id = (SELECT vid FROM node WHERE node.nid = field_data_body.entity_id)")
    for m in range(1, 80):
        plid = rnd.randint(1, m - 1) if m > 5 and rnd.random() < 0.6 else 0
        c.execute("INSERT INTO menu_links VALUES (?,?,?,?,?,?,?,?)",
                  (rnd.choice(["main-menu", "navigation", "management"]), m, plid, f"node/{m}", "node/%", f"Link {m}", 0, 1))
    c.commit()
    return c, [
        ("users_roles", "uid", "users", "uid", False),
        ("users_roles", "rid", "role", "rid", False),
        ("node", "vid", "node_revision", "vid", False),
        ("node", "uid", "users", "uid", False),
        ("node_revision", "nid", "node", "nid", False),
        ("node_revision", "uid", "users", "uid", False),
        ("comment", "pid", "comment", "cid", True),
        ("comment", "nid", "node", "nid", False),
        ("comment", "uid", "users", "uid", False),
        ("taxonomy_term_data", "vid", "taxonomy_vocabulary", "vid", False),
        ("taxonomy_term_hierarchy", "tid", "taxonomy_term_data", "tid", False),
        ("taxonomy_term_hierarchy", "parent", "taxonomy_term_data", "tid", True),
        ("taxonomy_index", "nid", "node", "nid", False),
        ("taxonomy_index", "tid", "taxonomy_term_data", "tid", False),
        ("file_managed", "uid", "users", "uid", False),
        ("file_usage", "fid", "file_managed", "fid", False),
        ("field_data_body", "entity_id", "node", "nid", False),
        ("field_data_body", "revision_id", "node_revision", "vid", False),
        ("menu_links", "plid", "menu_links", "mlid", True),
    ]


def django(path):
    rnd = random.Random(5)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE django_content_type (id INTEGER PRIMARY KEY, app_label TEXT, model TEXT);
    CREATE TABLE auth_user (id INTEGER PRIMARY KEY, password TEXT, last_login TEXT, is_superuser INTEGER, username TEXT UNIQUE, first_name TEXT, last_name TEXT, email TEXT, is_staff INTEGER, is_active INTEGER, date_joined TEXT);
    CREATE TABLE auth_group (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
    CREATE TABLE auth_permission (id INTEGER PRIMARY KEY, content_type_id INTEGER NOT NULL, codename TEXT, name TEXT);
    CREATE TABLE auth_user_groups (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, group_id INTEGER NOT NULL);
    CREATE TABLE auth_group_permissions (id INTEGER PRIMARY KEY, group_id INTEGER NOT NULL, permission_id INTEGER NOT NULL);
    CREATE TABLE django_admin_log (id INTEGER PRIMARY KEY, action_time TEXT, object_id TEXT, object_repr TEXT, action_flag INTEGER, change_message TEXT, content_type_id INTEGER, user_id INTEGER NOT NULL);
    CREATE TABLE shop_category (id INTEGER PRIMARY KEY, name TEXT, slug TEXT, parent_id INTEGER);
    CREATE TABLE shop_product (id INTEGER PRIMARY KEY, name TEXT, sku TEXT, price REAL, category_id INTEGER NOT NULL, created_by_id INTEGER, created_at TEXT);
    CREATE TABLE shop_customer (id INTEGER PRIMARY KEY, user_id INTEGER UNIQUE, phone TEXT, loyalty_points INTEGER);
    CREATE TABLE shop_address (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, street TEXT, city TEXT, postcode TEXT);
    CREATE TABLE shop_order (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, shipping_address_id INTEGER, billing_address_id INTEGER, status TEXT, placed_at TEXT, total REAL);
    CREATE TABLE shop_orderline (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, product_id INTEGER NOT NULL, quantity INTEGER, unit_price REAL);
    CREATE TABLE shop_product_tags (id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL, tag_id INTEGER NOT NULL);
    CREATE TABLE shop_tag (id INTEGER PRIMARY KEY, label TEXT);
    CREATE TABLE shop_review (id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL, author_id INTEGER NOT NULL, rating INTEGER, body TEXT);
    """)
    cts = [("admin","logentry"),("auth","permission"),("auth","group"),("auth","user"),("contenttypes","contenttype"),("shop","category"),("shop","product"),("shop","customer"),("shop","address"),("shop","order"),("shop","orderline"),("shop","tag"),("shop","review")]
    for i,(a,m) in enumerate(cts, start=1):
        c.execute("INSERT INTO django_content_type VALUES (?,?,?)", (i,a,m))
    pid = 0
    for ct in range(1, len(cts)+1):
        for act in ["add","change","delete","view"]:
            pid += 1
            c.execute("INSERT INTO auth_permission VALUES (?,?,?,?)", (pid, ct, f"{act}_{cts[ct-1][1]}", f"Can {act} {cts[ct-1][1]}"))
    NU = 400
    for u in range(1, NU+1):
        c.execute("INSERT INTO auth_user VALUES (?,?,?,?,?,?,?,?,?,?,?)", (u, "pbkdf2_sha256$"+str(rnd.getrandbits(40)), "2024-01-01", int(u<=2), f"u{u}", "F", "L", f"u{u}@x.test", int(u<=10), 1, "2023-01-01"))
    for g,n in enumerate(["editors","support","warehouse"], start=1):
        c.execute("INSERT INTO auth_group VALUES (?,?)", (g,n))
        for p in rnd.sample(range(1, pid+1), 12):
            c.execute("INSERT INTO auth_group_permissions (group_id, permission_id) VALUES (?,?)", (g,p))
    for u in range(1, 11):
        c.execute("INSERT INTO auth_user_groups (user_id, group_id) VALUES (?,?)", (u, rnd.randint(1,3)))
    NC = 30
    for k in range(1, NC+1):
        c.execute("INSERT INTO shop_category VALUES (?,?,?,?)", (k, f"Cat {k}", f"cat-{k}", rnd.randint(1, k-1) if k > 5 else None))
    NP = 500
    for p in range(1, NP+1):
        c.execute("INSERT INTO shop_product VALUES (?,?,?,?,?,?,?)", (p, f"Product {p}", f"SKU{p:05d}", round(rnd.uniform(1,300),2), rnd.randint(1,NC), rnd.randint(1,10), "2024-02-02"))
    for t in range(1, 41):
        c.execute("INSERT INTO shop_tag VALUES (?,?)", (t, f"tag{t}"))
    for p in range(1, NP+1):
        for t in rnd.sample(range(1,41), rnd.randint(0,3)):
            c.execute("INSERT INTO shop_product_tags (product_id, tag_id) VALUES (?,?)", (p,t))
    cust = 0; addr = 0
    for u in range(11, NU+1):
        if rnd.random() < 0.8:
            cust += 1
            c.execute("INSERT INTO shop_customer VALUES (?,?,?,?)", (cust, u, "+1555"+str(rnd.randint(100000,999999)), rnd.randint(0,5000)))
            for _ in range(rnd.randint(1,2)):
                addr += 1
                c.execute("INSERT INTO shop_address VALUES (?,?,?,?,?)", (addr, cust, "Main St", "Town", "12345"))
    addrs = {}
    for a_id, cu in c.execute("SELECT id, customer_id FROM shop_address").fetchall():
        addrs.setdefault(cu, []).append(a_id)
    oid = 0; lid = 0
    for o in range(1, 2001):
        cu = rnd.randint(1, cust)
        a = rnd.choice(addrs[cu])
        oid += 1
        c.execute("INSERT INTO shop_order VALUES (?,?,?,?,?,?,?)", (oid, cu, a, rnd.choice([a, None]), rnd.choice(["new","paid","shipped"]), "2024-03-03", 0))
        for _ in range(rnd.randint(1,4)):
            lid += 1
            c.execute("INSERT INTO shop_orderline VALUES (?,?,?,?,?)", (lid, oid, rnd.randint(1,NP), rnd.randint(1,5), 9.99))
    for r in range(1, 900):
        c.execute("INSERT INTO shop_review VALUES (?,?,?,?,?)", (r, rnd.randint(1,NP), rnd.randint(11,NU), rnd.randint(1,5), "ok"))
    for l in range(1, 600):
        c.execute("INSERT INTO django_admin_log (action_time, object_id, object_repr, action_flag, change_message, content_type_id, user_id) VALUES (?,?,?,?,?,?,?)", ("2024-04-04", str(rnd.randint(1,500)), "x", rnd.randint(1,3), "", rnd.randint(6,13), rnd.randint(1,10)))
    c.commit()
    return c, [
        ("auth_permission", "content_type_id", "django_content_type", "id", False),
        ("auth_user_groups", "user_id", "auth_user", "id", False),
        ("auth_user_groups", "group_id", "auth_group", "id", False),
        ("auth_group_permissions", "group_id", "auth_group", "id", False),
        ("auth_group_permissions", "permission_id", "auth_permission", "id", False),
        ("django_admin_log", "content_type_id", "django_content_type", "id", False),
        ("django_admin_log", "user_id", "auth_user", "id", False),
        ("shop_category", "parent_id", "shop_category", "id", False),
        ("shop_product", "category_id", "shop_category", "id", False),
        ("shop_product", "created_by_id", "auth_user", "id", False),
        ("shop_customer", "user_id", "auth_user", "id", False),
        ("shop_address", "customer_id", "shop_customer", "id", False),
        ("shop_order", "customer_id", "shop_customer", "id", False),
        ("shop_order", "shipping_address_id", "shop_address", "id", False),
        ("shop_order", "billing_address_id", "shop_address", "id", False),
        ("shop_orderline", "order_id", "shop_order", "id", False),
        ("shop_orderline", "product_id", "shop_product", "id", False),
        ("shop_product_tags", "product_id", "shop_product", "id", False),
        ("shop_product_tags", "tag_id", "shop_tag", "id", False),
        ("shop_review", "product_id", "shop_product", "id", False),
        ("shop_review", "author_id", "auth_user", "id", False),
    ]


def tienda(path):
    rnd = random.Random(3)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE paises (id_pais INTEGER PRIMARY KEY, nombre TEXT);
    CREATE TABLE ciudades (id_ciudad INTEGER PRIMARY KEY, nombre TEXT, id_pais INTEGER);
    CREATE TABLE clientes (id_cliente INTEGER PRIMARY KEY, nombre TEXT, correo TEXT, id_ciudad INTEGER, fecha_alta TEXT);
    CREATE TABLE empleados (id_empleado INTEGER PRIMARY KEY, nombre TEXT, id_jefe INTEGER, id_ciudad INTEGER);
    CREATE TABLE categorias (id_categoria INTEGER PRIMARY KEY, nombre TEXT, id_categoria_padre INTEGER);
    CREATE TABLE productos (id_producto INTEGER PRIMARY KEY, nombre TEXT, precio REAL, id_categoria INTEGER, id_proveedor INTEGER);
    CREATE TABLE proveedores (id_proveedor INTEGER PRIMARY KEY, razon_social TEXT, id_ciudad INTEGER);
    CREATE TABLE pedidos (id_pedido INTEGER PRIMARY KEY, id_cliente INTEGER, id_vendedor INTEGER, fecha TEXT, estado TEXT);
    CREATE TABLE detalle_pedido (id_pedido INTEGER, id_producto INTEGER, cantidad INTEGER, precio_unitario REAL, PRIMARY KEY (id_pedido, id_producto));
    CREATE TABLE facturas (id_factura INTEGER PRIMARY KEY, id_pedido INTEGER UNIQUE, importe REAL, fecha TEXT);
    """)
    for p in range(1, 21): c.execute("INSERT INTO paises VALUES (?,?)", (p, f"Pais {p}"))
    for ci in range(1, 201): c.execute("INSERT INTO ciudades VALUES (?,?,?)", (ci, f"Ciudad {ci}", rnd.randint(1,20)))
    for cl in range(1, 1501): c.execute("INSERT INTO clientes VALUES (?,?,?,?,?)", (cl, f"Cliente {cl}", f"c{cl}@correo.es", rnd.randint(1,200), "2023-05-05"))
    for e in range(1, 61): c.execute("INSERT INTO empleados VALUES (?,?,?,?)", (e, f"Empleado {e}", None if e <= 3 else rnd.randint(1, min(e-1, 15)), rnd.randint(1,200)))
    for k in range(1, 41): c.execute("INSERT INTO categorias VALUES (?,?,?)", (k, f"Cat {k}", None if k <= 6 else rnd.randint(1, 6)))
    for v in range(1, 81): c.execute("INSERT INTO proveedores VALUES (?,?,?)", (v, f"Proveedor {v} SL", rnd.randint(1,200)))
    for p in range(1, 801): c.execute("INSERT INTO productos VALUES (?,?,?,?,?)", (p, f"Producto {p}", round(rnd.uniform(1,500),2), rnd.randint(1,40), rnd.randint(1,80)))
    for o in range(1, 5001):
        c.execute("INSERT INTO pedidos VALUES (?,?,?,?,?)", (o, rnd.randint(1,1500), rnd.randint(16,60), "2024-01-01", rnd.choice(["nuevo","pagado","enviado"])))
        for p in rnd.sample(range(1,801), rnd.randint(1,4)):
            c.execute("INSERT INTO detalle_pedido VALUES (?,?,?,?)", (o, p, rnd.randint(1,9), 10.0))
        if rnd.random() < 0.7:
            c.execute("INSERT INTO facturas (id_pedido, importe, fecha) VALUES (?,?,?)", (o, 100.0, "2024-01-02"))
    c.commit()
    return c, [
        ("ciudades", "id_pais", "paises", "id_pais", False),
        ("clientes", "id_ciudad", "ciudades", "id_ciudad", False),
        ("empleados", "id_jefe", "empleados", "id_empleado", False),
        ("empleados", "id_ciudad", "ciudades", "id_ciudad", False),
        ("categorias", "id_categoria_padre", "categorias", "id_categoria", False),
        ("productos", "id_categoria", "categorias", "id_categoria", False),
        ("productos", "id_proveedor", "proveedores", "id_proveedor", False),
        ("proveedores", "id_ciudad", "ciudades", "id_ciudad", False),
        ("pedidos", "id_cliente", "clientes", "id_cliente", False),
        ("pedidos", "id_vendedor", "empleados", "id_empleado", False),
        ("detalle_pedido", "id_pedido", "pedidos", "id_pedido", False),
        ("detalle_pedido", "id_producto", "productos", "id_producto", False),
        ("facturas", "id_pedido", "pedidos", "id_pedido", False),
    ]


if __name__ == "__main__":
    appsets.main([("wordpress", wordpress), ("drupal", drupal), ("django", django), ("tienda", tienda)])
