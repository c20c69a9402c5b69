package main

import (
	"strings"
	"testing"
)

// TestContentModels runs the models of testdata/content, each of one kind
// of executable content or attribute, end to end: check loads them (exit
// 0) and prints exactly the warnings listed, and the flattened machine and
// the reference interpreter both end where the model says.
func TestContentModels(t *testing.T) {
	const dir = "../../testdata/content/"
	tests := []struct {
		file     string
		warnings []string // file:line:col of each warning, in order
		end      string   // the configuration both simulators end in
	}{
		{"error_execution.scxml", []string{"7:29", "11:25", "20:34"}, "done (halted)"},
		{"donedata.scxml", nil, "done (halted)"},
		{"dynamic_send.scxml", nil, "done (halted)"},
		{"failing_cond.scxml", []string{"12:34", "17:17"}, "done (halted)"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			code, out, errs := runCLI(t, "check", dir+tt.file)
			if code != 0 || errs != "" {
				t.Fatalf("check: exit %d\n%s%s", code, out, errs)
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				pos, msg, _ := strings.Cut(strings.TrimPrefix(line, dir+tt.file+":"), ": ")
				if line == "" {
					continue
				}
				if !strings.HasPrefix(msg, "warning: ") {
					t.Errorf("check prints %q, not a warning", line)
				}
				got = append(got, pos)
			}
			if strings.Join(got, " ") != strings.Join(tt.warnings, " ") {
				t.Errorf("warnings at %v, want %v:\n%s", got, tt.warnings, out)
			}
			for _, args := range [][]string{{"simulate", dir + tt.file}, {"simulate", "--reference", dir + tt.file}} {
				code, out, errs := runCLI(t, args...)
				lines := strings.Split(strings.TrimSpace(out), "\n")
				last := lines[len(lines)-1]
				if code != 0 || !strings.HasSuffix(last, ": "+tt.end) {
					t.Errorf("%v: exit %d, last line %q; want it to end in %q\n%s", args, code, last, tt.end, errs)
				}
			}
		})
	}
}
