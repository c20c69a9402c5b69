package cache

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
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

// compression is the DEFLATE level of the frames. Writing is on the
// analyses' path (a tree is stored before the report is out) and reading
// is hardly slowed by it: the fastest level compresses an encoded tree of
// AQS at depth 12 (1.1 MB) in a fifth of the default level's time to 203
// KB instead of 155 KB.
const compression = flate.BestSpeed

// pack frames data stored under kind and key, and returns the frame and its
// checksum. It stops with the context's error once the context ends.
func pack(ctx context.Context, kind, key string, data []byte) (frame, sum []byte, err error) {
	hdr := header(kind, key)
	b := bytes.NewBuffer(bytes.Clone(hdr))
	w, err := flate.NewWriter(b, compression)
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
