-- A store written by setbot before each store had its own migrations
-- (commit 725dc3a): every table in one shared migration sequence, at
-- user_version 110. Made by opening a new store with that setbot, putting a
-- blob, recording a run, enqueueing two jobs (one with an open check run)
-- and remembering a repository's schedule, then `sqlite3 FILE .dump`; the
-- two PRAGMAs, which .dump leaves out, are the file's own.
PRAGMA application_id = 1397052482;
PRAGMA user_version = 110;
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_migrations (
	version INTEGER PRIMARY KEY,
	name    TEXT NOT NULL,
	applied INTEGER NOT NULL -- unix nanoseconds
);
INSERT INTO schema_migrations VALUES(1,'blobs and runs',1795600171839793393);
INSERT INTO schema_migrations VALUES(100,'webhook deliveries and jobs',1795600171847355191);
INSERT INTO schema_migrations VALUES(101,'jobs remember their checks',1795600171850297968);
INSERT INTO schema_migrations VALUES(110,'repositories'' own schedules',1795600171850457668);
CREATE TABLE blob_clock (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	n  INTEGER NOT NULL
);
INSERT INTO blob_clock VALUES(1,1);
CREATE TABLE blobs (
	id        INTEGER PRIMARY KEY,
	kind      TEXT NOT NULL,
	key       TEXT NOT NULL,
	data      BLOB NOT NULL,    -- a frame: kind, key, raw DEFLATE of the caller's bytes (blob.go)
	size      INTEGER NOT NULL, -- length of the caller's bytes
	stored    INTEGER NOT NULL, -- length(data)
	sum       BLOB NOT NULL,    -- SHA-256 of the frame's header and the caller's bytes
	written   INTEGER NOT NULL, -- blob_clock tick of the Put
	last_used INTEGER NOT NULL, -- blob_clock tick of the last Put or Get
	UNIQUE (kind, key)
);
INSERT INTO blobs VALUES(1,'set','k1',X'ff534554424c4f420203736574026b314a5428aecc4dcacfc94c5648ad484d2e2dc9cccf5328294a4d05040000ffff',25,47,X'f4275aa81232507bef1f24263eeb8250eec9594d1f0669d5159410f76991045b',1,1);
CREATE TABLE runs (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	repo          TEXT NOT NULL,
	base          TEXT NOT NULL,
	head          TEXT NOT NULL,
	path          TEXT NOT NULL,
	strategy      TEXT NOT NULL,
	base_cached   INTEGER NOT NULL,
	head_cached   INTEGER NOT NULL,
	base_states   INTEGER NOT NULL,
	head_states   INTEGER NOT NULL,
	reused_states INTEGER NOT NULL,
	solver_calls  INTEGER NOT NULL,
	ms            INTEGER NOT NULL,
	created       INTEGER NOT NULL -- unix nanoseconds
);
INSERT INTO runs VALUES(1,'octo/triangle','b1','h1','m.scxml','full',0,0,3,4,0,0,12,1700000000000000000);
CREATE TABLE deliveries (
	id       TEXT PRIMARY KEY, -- X-GitHub-Delivery
	received INTEGER NOT NULL  -- unix nanoseconds
) WITHOUT ROWID;
INSERT INTO deliveries VALUES('d-1',1795600171850811108);
INSERT INTO deliveries VALUES('d-2',1795600171850987823);
CREATE TABLE jobs (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	delivery     TEXT NOT NULL,
	kind         TEXT NOT NULL,
	installation INTEGER NOT NULL,
	repo         TEXT NOT NULL,
	clone_url    TEXT NOT NULL,
	pr           INTEGER NOT NULL,
	branch       TEXT NOT NULL,
	base_sha     TEXT NOT NULL,
	head_sha     TEXT NOT NULL,
	fresh        INTEGER NOT NULL,
	requester    TEXT NOT NULL,
	command      TEXT NOT NULL,
	comment_id   INTEGER NOT NULL,
	key          TEXT NOT NULL, -- Job.Key()
	state        TEXT NOT NULL,
	attempts     INTEGER NOT NULL,
	error        TEXT NOT NULL,
	created      INTEGER NOT NULL, -- unix nanoseconds
	updated      INTEGER NOT NULL  -- unix nanoseconds
, check_run INTEGER NOT NULL DEFAULT 0, check_open INTEGER NOT NULL DEFAULT 0);
INSERT INTO jobs VALUES(1,'d-1','pull_request',7,'octo/triangle','https://github.com/octo/triangle.git',3,'main','b1','h1',0,'','',0,'octo/triangle#3','queued',0,'',1795600171850811108,1795600171850811108,99,1);
INSERT INTO jobs VALUES(2,'d-2','push',7,'octo/square','https://github.com/octo/square.git',0,'main','','h2',0,'','',0,'octo/square@main','queued',0,'',1795600171850987823,1795600171850987823,0,0);
CREATE TABLE published (
	key      TEXT PRIMARY KEY, -- Job.Key()
	job      INTEGER NOT NULL, -- id of the newest job whose result was published
	head_sha TEXT NOT NULL,
	updated  INTEGER NOT NULL  -- unix nanoseconds
) WITHOUT ROWID;
CREATE TABLE repo_schedules (
	repo         TEXT NOT NULL,
	branch       TEXT NOT NULL,
	spec         TEXT NOT NULL,
	installation INTEGER NOT NULL,
	clone_url    TEXT NOT NULL,
	updated      INTEGER NOT NULL, -- unix nanoseconds
	PRIMARY KEY (repo, branch)
) WITHOUT ROWID;
INSERT INTO repo_schedules VALUES('octo/triangle','main','0 3 * * *',7,'https://github.com/octo/triangle.git',1700000000000000000);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('runs',1);
INSERT INTO sqlite_sequence VALUES('jobs',2);
CREATE INDEX blobs_lru ON blobs (last_used, stored);
CREATE INDEX runs_created ON runs (created, id);
CREATE INDEX runs_repo_created ON runs (repo, created, id);
CREATE INDEX deliveries_received ON deliveries (received);
CREATE INDEX jobs_claim ON jobs (state, id);
CREATE INDEX jobs_key ON jobs (key, state, id);
CREATE INDEX jobs_open_checks ON jobs (check_open) WHERE check_open = 1;
COMMIT;
