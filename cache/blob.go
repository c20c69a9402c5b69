package cache

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io"
)

// Stats describes the blobs in the store.
type Stats struct {
	Entries int
	Bytes   int64 // stored (compressed) size
}

// Get returns the blob stored under kind and key and marks it used, so
// eviction keeps it longer. ok is false when there is none.
//
// A blob that fails to decompress or does not match the SHA-256 taken when
// it was written is never returned: it is deleted, logged, and reported as a
// miss. The blob is read without the write lock; if marking it used then
// fails (the lock was busy past the timeout), Get still returns it and logs
// the failure, since only eviction order suffers.
func (s *Store) Get(ctx context.Context, kind, key string) (data []byte, ok bool, err error) {
	if err := checkKey(kind, key); err != nil {
		return nil, false, fmt.Errorf("reading from cache: %w", err)
	}
	var (
		id, size, written int64
		z, sum            []byte
	)
	err = s.db.QueryRowContext(ctx, "SELECT id, data, size, sum, written FROM blobs WHERE kind = ? AND key = ?",
		kind, key).Scan(&id, &z, &size, &sum, &written)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s %q from cache %s: %w", kind, key, s.path, err)
	}
	data, err = unpack(z, size, sum)
	if err != nil {
		s.log.Error("cache blob damaged: deleted, reporting a miss",
			"path", s.path, "kind", kind, "key", key, "err", err)
		// Only the damaged version: a concurrent Put may have replaced it.
		if err := s.Write(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, "DELETE FROM blobs WHERE id = ? AND written = ?", id, written)
			return err
		}); err != nil {
			s.log.Warn("deleting damaged cache blob", "path", s.path, "kind", kind, "key", key, "err", err)
		}
		return nil, false, nil
	}
	if err := s.Write(ctx, func(tx *sql.Tx) error {
		now, err := tick(ctx, tx)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "UPDATE blobs SET last_used = ? WHERE id = ?", now, id)
		return err
	}); err != nil {
		s.log.Warn("marking cache blob used", "path", s.path, "kind", kind, "key", key, "err", err)
	}
	return data, true, nil
}

// Put stores data under kind and key, replacing any blob there, in one
// transaction that then evicts least recently used blobs until the stored
// total is within MaxBytes. It never evicts the blob it has just written,
// even one larger than MaxBytes on its own.
func (s *Store) Put(ctx context.Context, kind, key string, data []byte) error {
	if err := checkKey(kind, key); err != nil {
		return fmt.Errorf("writing to cache: %w", err)
	}
	z, err := pack(data)
	if err != nil {
		return fmt.Errorf("compressing %s %q for cache: %w", kind, key, err)
	}
	sum := sha256.Sum256(data)
	var evicted int
	err = s.Write(ctx, func(tx *sql.Tx) error {
		now, err := tick(ctx, tx)
		if err != nil {
			return err
		}
		var id int64
		err = tx.QueryRowContext(ctx, `
INSERT INTO blobs (kind, key, data, size, stored, sum, written, last_used)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (kind, key) DO UPDATE SET
	data = excluded.data, size = excluded.size, stored = excluded.stored, sum = excluded.sum,
	written = excluded.written, last_used = excluded.last_used
RETURNING id`, kind, key, z, len(data), len(z), sum[:], now, now).Scan(&id)
		if err != nil {
			return err
		}
		evicted, err = s.evict(ctx, tx, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("writing %s %q to cache %s: %w", kind, key, s.path, err)
	}
	if evicted > 0 {
		s.log.Debug("evicted cache blobs", "path", s.path, "count", evicted, "max_bytes", s.maxBytes)
	}
	return nil
}

// Delete removes the blob stored under kind and key, if any.
func (s *Store) Delete(ctx context.Context, kind, key string) error {
	if err := checkKey(kind, key); err != nil {
		return fmt.Errorf("deleting from cache: %w", err)
	}
	err := s.Write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "DELETE FROM blobs WHERE kind = ? AND key = ?", kind, key)
		return err
	})
	if err != nil {
		return fmt.Errorf("deleting %s %q from cache %s: %w", kind, key, s.path, err)
	}
	return nil
}

// DeleteKind deletes every blob of a kind and returns how many there were:
// for results that may rest on a tree found wrong.
func (s *Store) DeleteKind(ctx context.Context, kind string) (int64, error) {
	if kind == "" {
		return 0, fmt.Errorf("deleting from cache: empty kind")
	}
	var n int64
	err := s.Write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM blobs WHERE kind = ?", kind)
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("deleting every %s from cache %s: %w", kind, s.path, err)
	}
	return n, nil
}

// Stats counts the blobs and their stored bytes.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	var st Stats
	err := s.db.QueryRowContext(ctx, "SELECT count(*), coalesce(sum(stored), 0) FROM blobs").Scan(&st.Entries, &st.Bytes)
	if err != nil {
		return Stats{}, fmt.Errorf("reading cache statistics of %s: %w", s.path, err)
	}
	return st, nil
}

// evict deletes least recently used blobs other than keep until the stored
// total is within s.maxBytes, and says how many it deleted.
func (s *Store) evict(ctx context.Context, tx *sql.Tx, keep int64) (int, error) {
	if s.maxBytes < 0 {
		return 0, nil
	}
	var total int64
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(sum(stored), 0) FROM blobs").Scan(&total); err != nil {
		return 0, err
	}
	if total <= s.maxBytes {
		return 0, nil
	}
	victims, err := lruVictims(ctx, tx, keep, total-s.maxBytes)
	if err != nil {
		return 0, err
	}
	for _, id := range victims {
		if _, err := tx.ExecContext(ctx, "DELETE FROM blobs WHERE id = ?", id); err != nil {
			return 0, err
		}
	}
	return len(victims), nil
}

// lruVictims lists the least recently used blobs other than keep whose
// stored sizes add up to at least excess (or all of them).
func lruVictims(ctx context.Context, tx *sql.Tx, keep, excess int64) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id, stored FROM blobs WHERE id <> ? ORDER BY last_used", keep)
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

// tick advances the store's use counter and returns its new value. It
// writes, so the transaction holds the write lock and the value is unique.
func tick(ctx context.Context, tx *sql.Tx) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, "UPDATE blob_clock SET n = n + 1 WHERE id = 1 RETURNING n").Scan(&n)
	return n, err
}

func checkKey(kind, key string) error {
	switch {
	case kind == "":
		return errors.New("empty kind")
	case key == "":
		// Always a caller's bug (a missing hash); storing under it would mix
		// unrelated entries.
		return fmt.Errorf("empty key for kind %s", kind)
	}
	return nil
}

// pack compresses data with raw DEFLATE.
func pack(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.DefaultCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// unpack decompresses z and checks it against the size and SHA-256 recorded
// at Put. It reads at most size+1 bytes, so a damaged stream cannot inflate
// without bound.
func unpack(z []byte, size int64, sum []byte) ([]byte, error) {
	if size < 0 {
		return nil, fmt.Errorf("recorded size %d is negative", size)
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), size+1))
	if err != nil {
		return nil, fmt.Errorf("decompressing: %w", err)
	}
	if int64(len(data)) != size {
		return nil, fmt.Errorf("decompressed to %d bytes, recorded size is %d", len(data), size)
	}
	if got := sha256.Sum256(data); !bytes.Equal(got[:], sum) {
		return nil, errors.New("sha-256 of the decompressed bytes does not match the recorded one")
	}
	return data, nil
}
