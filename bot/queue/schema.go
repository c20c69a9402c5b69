package queue

import "github.com/setbot/setbot/cache"

// schema is the queue's tables in the cache store.
//
// Job ids come from AUTOINCREMENT so that they are never reused, even after
// Prune deletes the newest rows: "a higher id is a newer job" is what
// supersession and Published rely on. Kinds and states are checked in Go,
// not by CHECK constraints, so that a new kind does not need a table rebuild.
// jobs_claim serves Claim and Depth (queued jobs in id order), jobs_key the
// lookups by Key (a running job of the key, queued jobs to supersede, newer
// jobs).
var schema = cache.Schema{Name: "queue", Migrations: []cache.Migration{{
	Version: 1,
	Name:    "webhook deliveries and jobs",
	Legacy:  100,
	SQL: `
CREATE TABLE deliveries (
	id       TEXT PRIMARY KEY, -- X-GitHub-Delivery
	received INTEGER NOT NULL  -- unix nanoseconds
) WITHOUT ROWID;
CREATE INDEX deliveries_received ON deliveries (received);
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
);
CREATE INDEX jobs_claim ON jobs (state, id);
CREATE INDEX jobs_key ON jobs (key, state, id);
CREATE TABLE published (
	key      TEXT PRIMARY KEY, -- Job.Key()
	job      INTEGER NOT NULL, -- id of the newest job whose result was published
	head_sha TEXT NOT NULL,
	updated  INTEGER NOT NULL  -- unix nanoseconds
) WITHOUT ROWID;
`,
}, {
	// Jobs remember the check they opened on GitHub (a check run id, or -1
	// for a commit status), so that a later attempt reuses it and a job
	// that never comes back has its check closed instead of left in
	// progress.
	Version: 2,
	Name:    "jobs remember their checks",
	Legacy:  101,
	SQL: `
ALTER TABLE jobs ADD COLUMN check_run INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN check_open INTEGER NOT NULL DEFAULT 0;
CREATE INDEX jobs_open_checks ON jobs (check_open) WHERE check_open = 1;
`,
}, {
	// A job GitHub turned away for now (a rate limit, server errors) is
	// queued again with a time before which it is not claimed, and counts
	// its retries; both survive a restart. A pull request's head is swept
	// for check runs left in progress once its jobs end: swept records that
	// it was, and jobs that ended before this migration count as swept.
	Version: 3,
	Name:    "retries at a later time; heads swept",
	SQL: `
ALTER TABLE jobs ADD COLUMN not_before INTEGER NOT NULL DEFAULT 0; -- unix nanoseconds
ALTER TABLE jobs ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN swept INTEGER NOT NULL DEFAULT 0;
UPDATE jobs SET swept = 1 WHERE state IN ('done', 'failed', 'cancelled') OR kind NOT IN ('pull_request', 'merge_group');
CREATE INDEX jobs_unswept ON jobs (repo, head_sha) WHERE swept = 0;
CREATE INDEX jobs_head ON jobs (repo, head_sha, state);
`,
}, {
	// A job whose process died while running it is a suspect: it runs
	// again alone, and is failed if its process dies again (see Recover).
	Version: 4,
	Name:    "jobs count the crashes of their process",
	SQL: `
ALTER TABLE jobs ADD COLUMN crashes INTEGER NOT NULL DEFAULT 0;
CREATE INDEX jobs_suspects ON jobs (state) WHERE crashes > 0;
`,
}}}

// pgSchema is the queue's tables in a PostgreSQL store: those of schema,
// in PostgreSQL's types, with the leases. Ids come from a sequence and are
// never reused; jobs_one_running is the database's own guarantee of one
// running job per Key.
var pgSchema = cache.Schema{Name: "queue", Migrations: []cache.Migration{{
	Version: 1,
	Name:    "webhook deliveries, jobs with leases, publications",
	SQL: `
CREATE TABLE deliveries (
	id       text PRIMARY KEY, -- X-GitHub-Delivery
	received bigint NOT NULL   -- unix nanoseconds
);
CREATE INDEX deliveries_received ON deliveries (received);
CREATE TABLE jobs (
	id           bigserial PRIMARY KEY,
	delivery     text NOT NULL,
	kind         text NOT NULL,
	installation bigint NOT NULL,
	repo         text NOT NULL,
	clone_url    text NOT NULL,
	pr           integer NOT NULL,
	branch       text NOT NULL,
	base_sha     text NOT NULL,
	head_sha     text NOT NULL,
	fresh        boolean NOT NULL,
	requester    text NOT NULL,
	command      text NOT NULL,
	comment_id   bigint NOT NULL,
	key          text NOT NULL, -- Job.Key()
	state        text NOT NULL,
	attempts     integer NOT NULL,
	retries      integer NOT NULL DEFAULT 0,
	not_before   bigint NOT NULL DEFAULT 0, -- unix nanoseconds
	error        text NOT NULL,
	created      bigint NOT NULL, -- unix nanoseconds
	updated      bigint NOT NULL, -- unix nanoseconds
	check_run    bigint NOT NULL DEFAULT 0,
	check_open   boolean NOT NULL DEFAULT false,
	swept        boolean NOT NULL DEFAULT false,
	lease_owner  text NOT NULL DEFAULT '',  -- the replica running it
	lease_until  timestamptz                -- by the database's clock
);
CREATE INDEX jobs_claim ON jobs (state, id);
CREATE INDEX jobs_key ON jobs (key, state, id);
CREATE UNIQUE INDEX jobs_one_running ON jobs (key) WHERE state = 'running';
CREATE INDEX jobs_lease ON jobs (lease_until) WHERE state = 'running';
CREATE INDEX jobs_open_checks ON jobs (check_open) WHERE check_open;
CREATE INDEX jobs_unswept ON jobs (repo, head_sha) WHERE NOT swept;
CREATE INDEX jobs_head ON jobs (repo, head_sha, state);
CREATE INDEX jobs_check_run ON jobs (repo, check_run);
CREATE TABLE published (
	key      text PRIMARY KEY, -- Job.Key()
	job      bigint NOT NULL,  -- id of the newest job whose result was published
	head_sha text NOT NULL,
	updated  bigint NOT NULL   -- unix nanoseconds
);
`,
}, {
	Version: 2,
	Name:    "jobs count the crashes of their replica",
	SQL: `
ALTER TABLE jobs ADD COLUMN crashes integer NOT NULL DEFAULT 0;
CREATE INDEX jobs_suspects ON jobs (state) WHERE crashes > 0;
`,
}}}
