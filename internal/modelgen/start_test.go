package modelgen_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/setbot/setbot/internal/modelgen"
	mload "github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
)

// loadWith reads and flattens a document whose black-box function reads
// table.
func loadWith(t *testing.T, src, table []byte) *mlm.Machine {
	t.Helper()
	m, err := mload.Bytes(context.Background(), "m.scxml", src, mload.Options{Read: scxml.Options{ReadFile: func(rel string) ([]byte, error) {
		if rel == modelgen.TableFile {
			return table, nil
		}
		return nil, os.ErrNotExist
	}}})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return m
}

// TestStartInvokeTables: models with a start sequence, an invoke and a
// black-box function read; the edits of each (MutateStart, MutateInvoke,
// MutateTable) change the files and read, and Reshape's edits leave the
// machine equal.
func TestStartInvokeTables(t *testing.T) {
	applied := map[string]int{}
	for seed := int64(1); seed <= 40; seed++ {
		opts := modelgen.Options{States: 5, Start: true, Invoke: true, Functions: true,
			Timers: seed%2 == 0, Internal: seed%3 == 0, History: seed%4 == 0, Parallel: seed%5 == 0}
		src, table := modelgen.Generate(seed, opts), modelgen.Table(seed)
		base := loadWith(t, src, table)
		if !bytes.Contains(src, []byte("<invoke")) || !bytes.Contains(src, []byte(modelgen.FunctionName+"(")) {
			t.Errorf("seed %d: no invoke or no call of the function", seed)
		}
		if !bytes.Contains(src, []byte(`<raise event="`+modelgen.BootEvent+`"/>`)) {
			t.Errorf("seed %d: no start sequence", seed)
		}
		for name, edit := range map[string]func() ([]byte, []byte, bool){
			"start": func() ([]byte, []byte, bool) {
				out, _, ok := modelgen.MutateStart(src, seed)
				return out, table, ok
			},
			"invoke": func() ([]byte, []byte, bool) {
				out, _, ok := modelgen.MutateInvoke(src, seed)
				return out, table, ok
			},
			"table": func() ([]byte, []byte, bool) {
				out, _, ok := modelgen.MutateTable(table, seed)
				return src, out, ok
			},
		} {
			out, tab, ok := edit()
			if !ok {
				continue
			}
			applied[name]++
			if bytes.Equal(out, src) && bytes.Equal(tab, table) {
				t.Errorf("seed %d: the %s edit changes nothing", seed, name)
			}
			// An edit may leave the machine equal (a guard of the child on
			// an event it is never forwarded), but it must read.
			loadWith(t, out, tab)
		}
		out, what, ok := modelgen.Reshape(src, seed)
		if !ok {
			continue
		}
		applied["reshape"]++
		if head := loadWith(t, out, table); head.Hash != base.Hash {
			t.Errorf("seed %d: %s changes the machine", seed, what)
		}
	}
	for _, name := range []string{"start", "invoke", "table", "reshape"} {
		if applied[name] < 20 {
			t.Errorf("the %s edit applied to %d of 40 models", name, applied[name])
		}
	}
}
