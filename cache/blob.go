package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
)

// Get returns the blob stored under kind and key and marks it used, so
// eviction keeps it longer. ok is false when there is none.
//
// A blob is returned only when it was stored by Put under this kind and key
// in this format, and its bytes match the SHA-256 taken then. Any other blob
// is reported as a miss, logged, and deleted: one that fails to decompress
// or to match its checksum (damaged), one that records another kind or key
// (its row was moved or copied, so it answers another question), one of an
// older format. A blob of a newer format is left for the setbot that wrote
// it. The blob is read without the write lock; if marking it used then fails
// (the lock was busy past the timeout), Get still returns it and logs the
// failure, since only eviction order suffers.
func (db *DB) Get(ctx context.Context, kind, key string) (data []byte, ok bool, err error) {
	if err := checkKey(kind, key); err != nil {
		return nil, false, fmt.Errorf("reading from cache: %w", err)
	}
	var (
		id, size, written int64
		frame, sum        []byte
	)
	err = db.QueryRow(ctx, "SELECT id, data, size, sum, written FROM blobs WHERE kind = ? AND key = ?",
		kind, key).Scan(&id, &frame, &size, &sum, &written)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s %q from %s: %w", kind, key, db.where, err)
	}
	data, err = unpack(ctx, kind, key, frame, size, sum)
	if err != nil && ctx.Err() != nil {
		return nil, false, ctx.Err() // stopped, not damaged
	}
	if err != nil {
		if !unusable(ctx, db.log, db.placeKey, db.place, kind, key, err) {
			return nil, false, nil
		}
		// Only the version read: a concurrent Put may have replaced it.
		if err := db.Write(ctx, func(tx *Tx) error {
			_, err := tx.Exec(ctx, "DELETE FROM blobs WHERE id = ? AND written = ?", id, written)
			return err
		}); err != nil {
			db.log.Warn("deleting an unusable cache blob", db.placeKey, db.place, "kind", kind, "key", key, "err", err)
		}
		return nil, false, nil
	}
	if err := db.Write(ctx, func(tx *Tx) error {
		now, err := db.tick(ctx, tx)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "UPDATE blobs SET last_used = ? WHERE id = ?", now, id)
		return err
	}); err != nil {
		db.log.Warn("marking cache blob used", db.placeKey, db.place, "kind", kind, "key", key, "err", err)
	}
	return data, true, nil
}

// unusable logs why a blob read under kind and key could not be used, and
// says whether to delete it: every such blob but one of a newer format,
// which is left for the setbot that wrote it. where names the store
// (placeKey is "path" or "database").
func unusable(ctx context.Context, log *slog.Logger, placeKey, where, kind, key string, err error) bool {
	var level slog.Level
	var msg string
	var misfiled *misfiledError
	switch {
	case errors.Is(err, errNewerFormat):
		log.Debug("cache blob of a newer format: kept for the setbot that wrote it, reporting a miss",
			placeKey, where, "kind", kind, "key", key, "err", err)
		return false
	case errors.Is(err, errOlderFormat):
		level, msg = slog.LevelInfo, "cache blob of an older format: deleted, reporting a miss"
	case errors.As(err, &misfiled):
		level, msg = slog.LevelWarn, "cache blob stored under another key: deleted, reporting a miss"
	default:
		level, msg = slog.LevelError, "cache blob damaged: deleted, reporting a miss"
	}
	log.Log(ctx, level, msg, placeKey, where, "kind", kind, "key", key, "err", err)
	return true
}

// Put stores data under kind and key, replacing any blob there, in one
// transaction that then evicts least recently used blobs until the stored
// total is within MaxBytes. It never evicts the blob it has just written,
// even one larger than MaxBytes on its own.
func (db *DB) Put(ctx context.Context, kind, key string, data []byte) error {
	if err := checkKey(kind, key); err != nil {
		return fmt.Errorf("writing to cache: %w", err)
	}
	frame, sum, err := pack(ctx, kind, key, data)
	if err != nil {
		return fmt.Errorf("compressing %s %q for cache: %w", kind, key, err)
	}
	var evicted int
	err = db.Write(ctx, func(tx *Tx) error {
		now, err := db.tick(ctx, tx)
		if err != nil {
			return err
		}
		var id int64
		err = tx.QueryRow(ctx, `
INSERT INTO blobs (kind, key, data, size, stored, sum, written, last_used)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (kind, key) DO UPDATE SET
	data = excluded.data, size = excluded.size, stored = excluded.stored, sum = excluded.sum,
	written = excluded.written, last_used = excluded.last_used
RETURNING id`, kind, key, frame, len(data), len(frame), sum, now, now).Scan(&id)
		if err != nil {
			return err
		}
		evicted, err = db.evict(ctx, tx, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("writing %s %q to %s: %w", kind, key, db.where, err)
	}
	if evicted > 0 {
		db.log.Debug("evicted cache blobs", db.placeKey, db.place, "count", evicted, "max_bytes", db.maxBytes)
	}
	return nil
}

// DeleteKind deletes every blob of a kind and returns how many there were:
// for results that may rest on a tree found wrong.
func (db *DB) DeleteKind(ctx context.Context, kind string) (int64, error) {
	if kind == "" {
		return 0, fmt.Errorf("deleting from cache: empty kind")
	}
	var n int64
	err := db.Write(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, "DELETE FROM blobs WHERE kind = ?", kind)
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("deleting every %s from %s: %w", kind, db.where, err)
	}
	return n, nil
}

// evict deletes least recently used blobs other than keep until the stored
// total is within db.maxBytes, and says how many it deleted.
func (db *DB) evict(ctx context.Context, tx *Tx, keep int64) (int, error) {
	if db.maxBytes < 0 {
		return 0, nil
	}
	total, err := storedBytes(ctx, tx)
	if err != nil || total <= db.maxBytes {
		return 0, err
	}
	if db.dialect.lock != "" {
		// Servers sharing the database evict one at a time, each counting
		// again under the lock: another may have evicted meanwhile.
		if err := tx.lock(ctx, evictionLock); err != nil {
			return 0, err
		}
		if total, err = storedBytes(ctx, tx); err != nil {
			return 0, err
		}
	}
	victims, err := lruVictims(ctx, tx, keep, total-db.maxBytes)
	if err != nil {
		return 0, err
	}
	for _, id := range victims {
		if _, err := tx.Exec(ctx, "DELETE FROM blobs WHERE id = ?", id); err != nil {
			return 0, err
		}
	}
	return len(victims), nil
}

// storedBytes is the stored size of every blob.
func storedBytes(ctx context.Context, tx *Tx) (int64, error) {
	var total int64
	err := tx.QueryRow(ctx, "SELECT coalesce(sum(stored), 0) FROM blobs").Scan(&total)
	return total, err
}

// lruVictims lists the least recently used blobs other than keep whose
// stored sizes add up to at least excess (or all of them).
func lruVictims(ctx context.Context, tx *Tx, keep, excess int64) ([]int64, error) {
	rows, err := tx.Query(ctx, "SELECT id, stored FROM blobs WHERE id <> ? ORDER BY last_used", keep)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var victims []int64
	for excess > 0 && rows.Next() {
		var id, stored int64
		if err := rows.Scan(&id, &stored); err != nil {
			return nil, err
		}
		victims = append(victims, id)
		excess -= stored
	}
	return victims, rows.Err()
}

// tick advances the store's use counter and returns its new value: in
// SQLite it writes, so the transaction holds the write lock and the value
// is unique; in PostgreSQL it is a sequence's.
func (db *DB) tick(ctx context.Context, tx *Tx) (int64, error) {
	var n int64
	err := tx.QueryRow(ctx, db.dialect.tick).Scan(&n)
	return n, err
}
