package relations_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/internal/expertstest"
)

// TestInferEntityPrefixesAndNone: an invented forum in the convention of
// many web applications, which declare nothing:
//   - every table's name carries the application's prefix (bb_), and most
//     columns the word the table's rows are called (topic_title,
//     topic_author, reply_topic_ID, reply_parent), but not all (ID,
//     member_id);
//   - a column that may point nowhere is NOT NULL DEFAULT 0: a guest's
//     reply has member_id 0, a top-level reply reply_parent 0, a topic
//     not split from another topic_parent 0, and no key is 0;
//   - two metadata tables number their rows meta_id from 1 each: the
//     smaller one's ids sit inside the larger's, by construction, not by
//     reference;
//   - a forum's fid (1..4) and an attachment's fid (1..500), each
//     numbering its own rows: the forums' are no attachments';
//   - the forums' hierarchy is kept apart, in a table keyed by (fid,
//     parent), parent 0 for a forum at the top: its parent names a forum;
//   - a reply's body is kept in a table keyed by (entity_type, entity_id)
//     that names the body's latest revision, revision_id, unique in it: a
//     table that declares its key has said which column is its own, and
//     revision_id references the revisions' rid;
//   - decoys: a count of views that holds 0 too, and an editor_id whose
//     values beside 0 are no member's (a dirty key, not a reference to
//     members).
func TestInferEntityPrefixesAndNone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "forum.db")
	stmts := []string{
		`CREATE TABLE bb_members (ID INTEGER PRIMARY KEY, member_login TEXT, member_email TEXT, member_joined TEXT)`,
		`CREATE TABLE bb_topics (ID INTEGER PRIMARY KEY, topic_author INTEGER NOT NULL DEFAULT 0, topic_title TEXT,
			topic_created TEXT, topic_parent INTEGER NOT NULL DEFAULT 0, topic_views INTEGER NOT NULL DEFAULT 0, fid INTEGER)`,
		`CREATE TABLE bb_forums (fid INTEGER PRIMARY KEY, forum_name TEXT)`,
		`CREATE TABLE bb_files (fid INTEGER PRIMARY KEY, file_name TEXT, file_size INTEGER)`,
		`INSERT INTO bb_forums VALUES (1, 'news'), (2, 'help'), (3, 'sales'), (4, 'misc')`,
		`CREATE TABLE bb_revisions (rid INTEGER PRIMARY KEY, reply_ref INTEGER, rev_date TEXT)`,
		`CREATE TABLE bb_bodies (entity_type TEXT NOT NULL, entity_id INTEGER NOT NULL, revision_id INTEGER, body TEXT,
			PRIMARY KEY (entity_type, entity_id))`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r WHERE n < 6000)
			INSERT INTO bb_revisions SELECT n, (n+1) / 2, date('2020-02-01', '+' || (n % 800) || ' days') FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r WHERE n < 3000)
			INSERT INTO bb_bodies SELECT 'reply', n, 2*n, 'text ' || n FROM r`,
		`CREATE TABLE bb_forum_tree (fid INTEGER NOT NULL, parent INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (fid, parent))`,
		`INSERT INTO bb_forum_tree VALUES (1, 0), (2, 0), (3, 1), (4, 2)`,
		`WITH RECURSIVE f(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM f WHERE n < 500)
			INSERT INTO bb_files SELECT n, 'file' || n || '.png', 1000 + (n*7919) % 90000 FROM f`,
		`CREATE TABLE bb_replies (reply_ID INTEGER PRIMARY KEY, reply_topic_ID INTEGER NOT NULL DEFAULT 0, reply_body TEXT,
			reply_date TEXT, reply_parent INTEGER NOT NULL DEFAULT 0, member_id INTEGER NOT NULL DEFAULT 0,
			editor_id INTEGER NOT NULL DEFAULT 0)`,
		`CREATE TABLE bb_topicmeta (meta_id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL DEFAULT 0, meta_key TEXT, meta_value TEXT)`,
		`CREATE TABLE bb_replymeta (meta_id INTEGER PRIMARY KEY, reply_id INTEGER NOT NULL DEFAULT 0, meta_key TEXT, meta_value TEXT)`,
		`WITH RECURSIVE m(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM m WHERE n < 120)
			INSERT INTO bb_members SELECT n, 'member' || n, 'm' || n || '@example.org', date('2019-01-01', '+' || (n*5) || ' days') FROM m`,
		// 600 topics by 40 of the members; one in five split from an
		// earlier topic; views 0..499.
		`WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t WHERE n < 600)
			INSERT INTO bb_topics SELECT n, 1 + (n*7) % 40 * 3, 'topic ' || n, date('2020-01-01', '+' || (n % 900) || ' days'),
				CASE WHEN n > 10 AND n % 5 = 0 THEN 1 + (n*13) % (n-1) ELSE 0 END, (n*37) % 500, 1 + n % 4 FROM t`,
		// 3,000 replies: a third by guests (member 0), a quarter answering
		// an earlier reply; edited by members or by 9xx accounts gone.
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r WHERE n < 3000)
			INSERT INTO bb_replies SELECT n, 1 + (n*11) % 600, 'reply ' || n, date('2020-02-01', '+' || (n % 800) || ' days'),
				CASE WHEN n > 4 AND n % 4 = 0 THEN 1 + (n*17) % (n-1) ELSE 0 END,
				CASE WHEN n % 3 = 0 THEN 0 ELSE 1 + (n*29) % 120 END,
				CASE WHEN n % 5 = 0 THEN 900 + n % 40 WHEN n % 5 = 1 THEN 1 + n % 120 ELSE 0 END FROM r`,
		`WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM k WHERE n < 1500)
			INSERT INTO bb_topicmeta SELECT n, 1 + (n*3) % 600, 'key' || (n % 6), 'v' || n FROM k`,
		`WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM k WHERE n < 400)
			INSERT INTO bb_replymeta SELECT n, 1 + (n*7) % 3000, 'key' || (n % 4), 'v' || n FROM k`,
	}
	expertstest.SQLite(t, path, stmts...)
	keys, byKey := inferredKeys(t, runInference(t, path))
	wantKeys(t, keys, []string{
		"bb_bodies(entity_id)->bb_replies(reply_ID)", // every reply's id, up to the last: its values propose it
		"bb_bodies(revision_id)->bb_revisions(rid)",
		"bb_forum_tree(fid)->bb_forums(fid)",
		"bb_forum_tree(parent)->bb_forums(fid)",
		"bb_replies(member_id)->bb_members(ID)",
		"bb_replies(reply_parent)->bb_replies(reply_ID)",
		"bb_replies(reply_topic_ID)->bb_topics(ID)",
		"bb_replymeta(reply_id)->bb_replies(reply_ID)",
		"bb_revisions(reply_ref)->bb_replies(reply_ID)",
		"bb_topicmeta(topic_id)->bb_topics(ID)",
		"bb_topics(fid)->bb_forums(fid)",
		"bb_topics(topic_author)->bb_members(ID)",
		"bb_topics(topic_parent)->bb_topics(ID)",
	})
	// The guests' 0 is read as none, and says so.
	e, ok := byKey["bb_replies(member_id)->bb_members(ID)"]
	if !ok {
		return
	}
	want := "0 in 1,000 rows read as none"
	if ev := strings.Join(e.Evidence, "; "); !strings.Contains(ev, want) {
		t.Errorf("evidence %q, want %q", ev, want)
	}
	if e.Confidence < 0.8 {
		t.Errorf("confidence %.2f, want at least 0.8: %s", e.Confidence, fmt.Sprint(e.Evidence))
	}
}

// TestQualifiedSelfCandidates: a column named after its own table's rows
// and one word no list knows is checked as a self reference
// (id_categoria_padre in categorias), unless the two words name another
// table (order_line_id in orders names the order lines).
func TestQualifiedSelfCandidates(t *testing.T) {
	col := func(table, name string, pk bool) relations.Column {
		return relations.Column{Table: table, Name: name, Type: "INTEGER", PK: pk, Declared: pk}
	}
	cols := []relations.Column{
		col("categorias", "id_categoria", true), col("categorias", "id_categoria_padre", false),
		col("orders", "order_id", true), col("orders", "order_line_id", false),
		col("order_lines", "order_line_id", true), col("order_lines", "quantity", false),
	}
	var got []string
	for _, c := range relations.Candidates(cols) {
		if c.Child.Table == c.Parent.Table {
			got = append(got, c.Key())
		}
	}
	want := []string{"categorias(id_categoria_padre)->categorias(id_categoria)"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("self candidates %q, want %q", got, want)
	}
}

// TestInferGluedKeySuffix: an invented learning platform whose references
// are a key suffix glued to the target's words in one lowercase word
// (userid, courseid, realuserid, homesiteid), every key a bare id, and a
// unique start date in a table that declares its key: the glued names are
// found, and the enrolments' creation times, which fall on the courses'
// start dates, are no reference to them. It fails on the code before
// (neither userid nor realuserid was read apart; the times were linked).
func TestInferGluedKeySuffix(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lms.db")
	expertstest.SQLite(t, path,
		`CREATE TABLE lms_home_site (id INTEGER PRIMARY KEY, wwwroot TEXT)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 30)
			INSERT INTO lms_home_site SELECT i, 'https://' || i || '.example' FROM n`,
		`CREATE TABLE lms_user (id INTEGER PRIMARY KEY, username TEXT, homesiteid INTEGER, timecreated INTEGER)`,
		`CREATE TABLE lms_course (id INTEGER PRIMARY KEY, fullname TEXT, startdate INTEGER NOT NULL, visible INTEGER)`,
		`CREATE TABLE lms_enrolment (id INTEGER PRIMARY KEY, userid INTEGER NOT NULL, courseid INTEGER NOT NULL,
			timecreated INTEGER NOT NULL, status INTEGER)`,
		`CREATE TABLE lms_log (id INTEGER PRIMARY KEY, userid INTEGER NOT NULL, realuserid INTEGER, courseid INTEGER, action TEXT)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 400)
			INSERT INTO lms_user SELECT i, 'user' || i, 1 + (i * 7) % 30, 1500000000 + i * 86400 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 250)
			INSERT INTO lms_course SELECT i, 'course ' || i, 1600000000 + i * 604800, i % 2 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 3000)
			INSERT INTO lms_enrolment SELECT i, 1 + (i * 7) % 400, 1 + (i * 13) % 250, 1600000000 + (1 + (i * 13) % 250) * 604800, i % 2 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 4000)
			INSERT INTO lms_log SELECT i, 1 + (i * 11) % 400, CASE WHEN i % 10 = 0 THEN 1 + (i / 10 * 7) % 60 END,
				CASE WHEN i % 7 = 0 THEN NULL ELSE 1 + (i * 17) % 250 END, 'viewed' FROM n`,
	)
	keys, _ := inferredKeys(t, runInference(t, path))
	wantKeys(t, keys, []string{
		"lms_enrolment(courseid)->lms_course(id)",
		"lms_enrolment(userid)->lms_user(id)",
		"lms_log(courseid)->lms_course(id)",
		"lms_log(realuserid)->lms_user(id)",
		"lms_log(userid)->lms_user(id)",
		"lms_user(homesiteid)->lms_home_site(id)",
	})
}
