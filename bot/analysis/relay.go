package analysis

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"strings"
)

// maxRecord bounds one line of a child's standard error.
const maxRecord = 1 << 20

// relay copies the child's log records (JSON lines) to log, as the job's
// own records, and returns the first stderrKept bytes of what was not a
// record: a fatal error's message and stack, which the server logs too.
func relay(ctx context.Context, r io.Reader, log *slog.Logger) string {
	var rest strings.Builder
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxRecord)
	for sc.Scan() {
		if record(ctx, sc.Bytes(), log) {
			continue
		}
		if rest.Len() < stderrKept {
			rest.Write(sc.Bytes()[:min(len(sc.Bytes()), stderrKept-rest.Len())])
			rest.WriteByte('\n')
		}
	}
	io.Copy(io.Discard, r) // a line longer than maxRecord: the rest is dropped
	if rest.Len() > 0 {
		log.Warn("the analysis process wrote", "stderr", rest.String())
	}
	return rest.String()
}

// record logs line to log when it is a record of the child's JSON handler.
func record(ctx context.Context, line []byte, log *slog.Logger) bool {
	var m map[string]any
	if json.Unmarshal(line, &m) != nil {
		return false
	}
	msg, ok1 := m[slog.MessageKey].(string)
	lv, ok2 := m[slog.LevelKey].(string)
	var level slog.Level
	if !ok1 || !ok2 || level.UnmarshalText([]byte(lv)) != nil {
		return false
	}
	delete(m, slog.MessageKey)
	delete(m, slog.LevelKey)
	delete(m, slog.TimeKey)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	attrs := make([]slog.Attr, len(keys))
	for i, k := range keys {
		attrs[i] = slog.Any(k, m[k])
	}
	log.LogAttrs(context.WithoutCancel(ctx), level, msg, attrs...)
	return true
}
