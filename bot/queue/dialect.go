package queue

import (
	"fmt"

	"github.com/setbot/setbot/cache"
)

// dialect is what the queue does differently in SQLite and in PostgreSQL,
// as goose keeps it (Pressly, internal/dialect): the schema, and the pieces
// of SQL that differ. Everything else is one implementation (store.go),
// whose statements are written with ? placeholders that cache.DB numbers
// for PostgreSQL.
//
// In SQLite one server uses the file and every write transaction holds the
// one write lock, so there are no leases, locks or notifications: those
// fields are "". In PostgreSQL several servers share the database (see the
// package documentation): a running job has a lease, claims skip the rows
// another claim locked, the jobs of a Key are enqueued under an advisory
// lock, and news goes out with NOTIFY.
type dialect struct {
	schema cache.Schema
	// hasJobs says whether the jobs table exists.
	hasJobs string
	// keyLock takes the advisory lock of the Key ? until the transaction
	// ends.
	keyLock string
	// tryLock tries to take the advisory lock ? until the transaction ends,
	// and says whether it did.
	tryLock string
	// notify sends the payload ?2 on the channel ?1.
	notify string

	// lease is the SET clause of a claim that gives the claimer, ?4, a
	// lease of ?5 milliseconds.
	lease string
	// sameServer restricts the running jobs r that hold back a suspect to
	// those of the claimer, ?4: "alone" is per server.
	sameServer string
	// skipLocked ends the claim's choice of a row.
	skipLocked string
	// free is the SET clause that ends the lease of a job that stops
	// running.
	free string
	// expired restricts the running jobs Recover deals with to those whose
	// lease expired; in SQLite, every running job is one a dead process
	// left.
	expired string
	// held restricts a change of a running job to this server's, whose
	// lease owner is the argument appended (see sqlQueue.owned).
	held string
	// checkHeld restricts SetCheck's job, if running, to this server's
	// (arguments Running and the owner).
	checkHeld string
	// True and False are boolean literals: SQLite's partial indexes match
	// 1 and 0, not TRUE and FALSE.
	True, False string
}

var sqliteDialect = &dialect{
	schema:  schema,
	hasJobs: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'",
	True:    "1",
	False:   "0",
}

// leaseUntil is the end of a lease of %s (a placeholder) milliseconds from
// now, by the database's clock.
const leaseUntil = "clock_timestamp() + %s::float8 * interval '1 millisecond'"

var postgresDialect = &dialect{
	schema:     pgSchema,
	hasJobs:    "SELECT to_regclass('jobs') IS NOT NULL",
	keyLock:    "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))",
	tryLock:    "SELECT pg_try_advisory_xact_lock(?)",
	notify:     "SELECT pg_notify(?, ?)",
	lease:      ", lease_owner = ?4, lease_until = " + fmt.Sprintf(leaseUntil, "?5"),
	sameServer: " AND r.lease_owner = ?4",
	skipLocked: " FOR UPDATE SKIP LOCKED",
	free:       ", lease_owner = '', lease_until = NULL",
	expired:    " AND lease_until < now()",
	held:       " AND lease_owner = ?",
	checkHeld:  " AND (state <> ? OR lease_owner = ?)",
	True:       "true",
	False:      "false",
}
