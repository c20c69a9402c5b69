package cache

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
)

// Every stored blob is a frame: blobMagic, the format version (one byte),
// the kind and the key it was stored under (each a uvarint length and the
// bytes), then the raw DEFLATE of the caller's bytes. The row's sum is the
// SHA-256 of the frame's header followed by the caller's bytes, so damage to
// the recorded kind or key is caught like damage to the data. Format 1, the
// bare DEFLATE stream with no header, recorded no key: such blobs are never
// returned. No DEFLATE stream starts with 0xff (block type 3 is reserved),
// so a format 1 blob cannot be taken for a frame.
const (
	blobMagic  = "\xffSETBLOB"
	blobFormat = 2
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
		if err := tx.Lock(ctx, evictionLock); err != nil {
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

// header is the start of a blob's frame, up to its DEFLATE stream.
func header(kind, key string) []byte {
	h := append([]byte(blobMagic), blobFormat)
	h = binary.AppendUvarint(h, uint64(len(kind)))
	h = append(h, kind...)
	h = binary.AppendUvarint(h, uint64(len(key)))
	return append(h, key...)
}

// checksum is the SHA-256 recorded with a blob: of its frame's header, then
// the caller's bytes.
func checksum(ctx context.Context, header, data []byte) ([]byte, error) {
	h := sha256.New()
	h.Write(header)
	if err := inChunks(ctx, data, h.Write); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// chunk is how much of a blob is compressed, decompressed or hashed
// between two looks at the context: a blob of a large suite is tens of
// megabytes, which take seconds.
const chunk = 1 << 20

// inChunks writes data with write a chunk at a time, and stops with the
// context's error once it ends.
func inChunks(ctx context.Context, data []byte, write func([]byte) (int, error)) error {
	for len(data) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(chunk, len(data))
		if _, err := write(data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// ctxReader reads r, and fails with the context's error once it ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p[:min(len(p), chunk)])
}

// pack frames data stored under kind and key, and returns the frame and its
// checksum. It stops with the context's error once the context ends.
func pack(ctx context.Context, kind, key string, data []byte) (frame, sum []byte, err error) {
	hdr := header(kind, key)
	b := bytes.NewBuffer(bytes.Clone(hdr))
	w, err := flate.NewWriter(b, flate.DefaultCompression)
	if err != nil {
		return nil, nil, err
	}
	if err := inChunks(ctx, data, w.Write); err != nil {
		return nil, nil, err
	}
	if err := w.Close(); err != nil {
		return nil, nil, err
	}
	if sum, err = checksum(ctx, hdr, data); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), sum, nil
}

var (
	errOlderFormat = errors.New("format 1 (no header), which records no key")
	errNewerFormat = errors.New("a newer format than this setbot knows")
)

// misfiledError reports a blob read under another kind or key than the one
// it was stored under.
type misfiledError struct{ kind, key string }

func (e *misfiledError) Error() string {
	return fmt.Sprintf("stored as %s %q", e.kind, e.key)
}

// unpack checks that frame was stored under kind and key, decompresses it,
// and checks the result against the size and checksum recorded at Put. It
// reads at most size+1 bytes, so a damaged stream cannot inflate without
// bound.
func unpack(ctx context.Context, kind, key string, frame []byte, size int64, sum []byte) ([]byte, error) {
	hdrKind, hdrKey, hdrLen, err := readHeader(frame)
	if err != nil {
		return nil, err
	}
	if size < 0 {
		return nil, fmt.Errorf("recorded size %d is negative", size)
	}
	data, err := io.ReadAll(io.LimitReader(ctxReader{ctx, flate.NewReader(bytes.NewReader(frame[hdrLen:]))}, size+1))
	if err != nil {
		return nil, fmt.Errorf("decompressing: %w", err)
	}
	if int64(len(data)) != size {
		return nil, fmt.Errorf("decompressed to %d bytes, recorded size is %d", len(data), size)
	}
	got, err := checksum(ctx, frame[:hdrLen], data)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(got, sum) {
		return nil, errors.New("sha-256 of the header and decompressed bytes does not match the recorded one")
	}
	// The checksum vouches for the header: a different kind or key is not
	// damage but a blob that answers another question.
	if hdrKind != kind || hdrKey != key {
		return nil, &misfiledError{kind: hdrKind, key: hdrKey}
	}
	return data, nil
}

// readHeader parses the header of a frame and returns the kind and key it
// records and the header's length.
func readHeader(frame []byte) (kind, key string, n int, err error) {
	if len(frame) == 0 || frame[0] != blobMagic[0] {
		return "", "", 0, errOlderFormat
	}
	if !bytes.HasPrefix(frame, []byte(blobMagic)) || len(frame) == len(blobMagic) {
		return "", "", 0, errors.New("no frame header")
	}
	switch v := frame[len(blobMagic)]; {
	case v > blobFormat:
		return "", "", 0, fmt.Errorf("format %d: %w", v, errNewerFormat)
	case v < blobFormat:
		return "", "", 0, fmt.Errorf("format %d in a frame header", v)
	}
	n = len(blobMagic) + 1
	field := func() (string, error) {
		l, w := binary.Uvarint(frame[n:])
		if w <= 0 || l > uint64(len(frame)-n-w) {
			return "", errors.New("truncated frame header")
		}
		n += w
		f := string(frame[n : n+int(l)])
		n += int(l)
		return f, nil
	}
	if kind, err = field(); err != nil {
		return "", "", 0, err
	}
	if key, err = field(); err != nil {
		return "", "", 0, err
	}
	return kind, key, n, nil
}
