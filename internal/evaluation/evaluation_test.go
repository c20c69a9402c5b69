package evaluation

import (
	"strings"
	"testing"
	"time"
)

// TestWriteTable pins the table's layout: docs/evaluation.md's tables are
// this function's output, and the savings are one minus each ratio.
func TestWriteTable(t *testing.T) {
	rows := []Row{
		{Name: "v01", Changed: 1, Impacted: 2, M1: 64, M2: 81, Full: 100 * time.Millisecond, MSE: 25 * time.Millisecond,
			DSE: 100 * time.Millisecond, Auto: 30 * time.Millisecond, AutoStrategy: "mse", States: 100, Paths: 40,
			MSENewStates: 10, MSENewPaths: 4, DSEStates: 100, DSEPaths: 40, Identical: true},
		{Name: "k_state_added", M1: 100, M2: 100, Full: 50 * time.Millisecond, MSE: 25 * time.Millisecond,
			DSE: 5 * time.Millisecond, AutoStrategy: "reuse", States: 20, Paths: 10, DSEStates: 5, DSEPaths: 2},
	}
	var b strings.Builder
	if err := WriteTable(&b, "M (m.scxml): 2 versions", rows); err != nil {
		t.Fatal(err)
	}
	want := `M (m.scxml): 2 versions

| Ver. | changed | impacted | M1 | M2 | SE:MSE time | new states | total states | new paths | total paths | SE:DSE time | states | paths | auto | auto/full | MSE = SE |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
| v01 | 1 | 2 | 64 | 81 | 1 : 0.25 | 1 : 0.10 | 1 : 1 | 1 : 0.10 | 1 : 1 | 1 : 1.00 | 1 : 1.00 | 1 : 1.00 | mse | 0.30 | yes |
| k_state_added | 0 | 0 | 100 | 100 | 1 : 0.50 | 1 : 0.00 | 1 : 1 | 1 : 0.00 | 1 : 1 | 1 : 0.10 | 1 : 0.25 | 1 : 0.20 | reuse | 0.00 | NO |
| Average savings | | | | | 62.5 % | 95.0 % | | 95.0 % | | 45.0 % | 37.5 % | 40.0 % | | | |
| Standard deviation | | | | | 12.5 % | 5.0 % | | 5.0 % | | 45.0 % | 37.5 % | 40.0 % | | | |

Versions where MSE's tree differs from SE's: 1 of 2. Largest time(auto)/time(full): 0.30.

`
	if got := b.String(); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}
