package scxml_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// maxHeapRatio is the heap that reading an accepted model may need, per
// byte of its file: reading stays proportional to what a pull request
// sends, whatever the shape of what it sends.
const maxHeapRatio = 50

// accepted are hostile shapes made as large as one likes of pieces that
// the limits of package lang accept, each at 100 to 300 KB: the ratio of
// heap to bytes is about that of the same shape at 1 MB (the note of
// issue 27 measures those), and the test stays fast.
var accepted = map[string]func() []byte{
	"sums":         func() []byte { return hostile.Guards(32, hostile.SumCond(ast.MaxNesting-2)) },
	"parentheses":  func() []byte { return hostile.Guards(128, hostile.ParensCond(ast.MaxNesting-1)) },
	"alternatives": func() []byte { return hostile.Guards(12, hostile.AlternativesCond(11*ast.MaxNesting)) },
	"scripts":      func() []byte { return hostile.Scripts(4, ast.MaxStmts/2) },
	"assigns":      func() []byte { return hostile.Assigns(1500) },
	"parallel":     func() []byte { return hostile.Parallel(1800) },
	"idle":         func() []byte { return hostile.Idle(2500, 2500) },
}

// Reading each accepted shape keeps at most maxHeapRatio times its bytes
// live in the heap. Each shape is read in a process of its own (the test
// binary run again), where nothing else allocates, with the collector run
// after every 5% of growth and stopping the world (GODEBUG
// gcstoptheworld=1), so that each collection finds exactly what reading
// holds at that moment, not what it allocates while the collector marks;
// the most a collection finds, sampled while reading, is the memory
// reading needs (at the collector's default of 100%, a process may take
// up to about twice as much before it collects). Sampling can only miss
// the fullest moment, never add to it.
func TestReadHeap(t *testing.T) {
	if name := os.Getenv("SETBOT_READHEAP_SHAPE"); name != "" {
		readHeapChild(name)
		return
	}
	for name := range accepted {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestReadHeap$", "-test.count=1")
			cmd.Env = append(os.Environ(), "SETBOT_READHEAP_SHAPE="+name, "GODEBUG=gcstoptheworld=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var size, peak uint64
			line, _, _ := strings.Cut(string(out), "\n")
			if _, err := fmt.Sscanf(line, "read %d bytes, live heap at most %d", &size, &peak); err != nil {
				t.Fatalf("%v in the child's output:\n%s", err, out)
			}
			if peak > maxHeapRatio*size {
				t.Errorf("reading %d bytes kept %d live in the heap, more than %d times as much", size, peak, maxHeapRatio)
			}
			t.Logf("%s: %d bytes, live heap at most %d (%.1fx)", name, size, peak, float64(peak)/float64(size))
		})
	}
}

// readHeapChild reads the shape name and prints its size and the most
// that a collection found live while reading it, beyond what was live
// before.
func readHeapChild(name string) {
	src := accepted[name]()
	debug.SetGCPercent(5)
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	peak := base
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			peak = max(peak, read())
			select {
			case <-done:
				return
			default:
				runtime.Gosched()
			}
		}
	}()
	_, errs := scxml.Read(source.NewFileSet(), "h.scxml", src, scxml.Options{})
	close(done)
	<-stopped
	if len(errs) > 0 {
		fmt.Println(errs)
		os.Exit(1)
	}
	fmt.Printf("read %d bytes, live heap at most %d\n", len(src), peak-base)
	os.Exit(0)
}
