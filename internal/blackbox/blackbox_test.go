package blackbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
)

// root is the repository root, which the commands are relative to.
const root = "../.."

func TestCommandComputesARow(t *testing.T) {
	run := Command(root, 0)
	f := &model.Function{Name: "RISE", Params: []lang.Type{lang.IntType}, Result: lang.DecimalType, Command: "engine/testdata/microgrid/rise"}
	got, err := run(f, []lang.Expr{&lang.IntLit{Value: 228}})
	if err != nil {
		t.Fatal(err)
	}
	if s := lang.ExprString(got); s != "0.97" {
		t.Errorf("RISE(228) = %s, want 0.97", s)
	}
}

func TestCommandOutsideTheRepository(t *testing.T) {
	run := Command(root, 0)
	for _, cmd := range []string{"../x", "/bin/echo", "engine/../../x"} {
		f := &model.Function{Name: "f", Result: lang.IntType, Command: cmd}
		if _, err := run(f, nil); err == nil || !strings.Contains(err.Error(), "outside the repository") {
			t.Errorf("command %s: error %v, want one that refuses it", cmd, err)
		}
	}
}

func TestCommandOutputOfTheWrongType(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("#!/bin/sh\necho hello\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := &model.Function{Name: "f", Result: lang.IntType, Command: "f"}
	if _, err := Command(dir, 0)(f, nil); err == nil || !strings.Contains(err.Error(), `output "hello"`) {
		t.Errorf("error %v", err)
	}
}

func TestSaveRows(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte("# in, out\n1,2"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &model.Function{Name: "f", Table: "t.csv", Rows: []*model.Row{
		{In: []lang.Expr{&lang.IntLit{Value: 1}}, Out: &lang.IntLit{Value: 2}},
		{In: []lang.Expr{&lang.IntLit{Value: 5}}, Out: &lang.StrLit{Value: "a,b"}, Grown: true},
	}}
	n, err := SaveRows(dir, []*model.Function{f})
	if err != nil || n != 1 {
		t.Fatalf("SaveRows = %d, %v", n, err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "t.csv"))
	if want := "# in, out\n1,2\n5,\"a,b\"\n"; string(got) != want {
		t.Errorf("table %q, want %q", got, want)
	}
}
