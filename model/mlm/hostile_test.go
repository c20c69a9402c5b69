package mlm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// read reads a generated model.
func read(t *testing.T, src []byte) *model.Model {
	t.Helper()
	m, errs := scxml.Read(source.NewFileSet(), "p.scxml", src, scxml.Options{})
	if len(errs) > 0 {
		t.Fatalf("reading: %v", errs)
	}
	return m
}

// TestEventsOfferedAreTheTaken: a ring of 3,000 states with 3,000 events
// that one state takes flattens in states + events macrosteps, not states
// × events (9 million): the flattener looks at its context once every
// 1,024 of them, so the looks count them. Busy, whose every state takes
// every event (on a condition that never holds), still costs states ×
// events.
func TestEventsOfferedAreTheTaken(t *testing.T) {
	count := func(src []byte) int {
		m := read(t, src)
		looks := 0
		defer mlm.SetCheckHook(func() { looks++ })()
		mach, err := mlm.Flatten(t.Context(), m, mlm.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(mach.States) == 0 {
			t.Fatal("no states")
		}
		return looks
	}
	if looks := count(hostile.Idle(3000, 3000)); looks > 2*(3000+3000)/1024+2 {
		t.Errorf("Idle(3000, 3000): %d looks at the context, so about %d macrosteps; want about 6,000", looks, looks*1024)
	}
	if looks := count(hostile.Busy(200, 200)); looks < 200*200/1024 {
		t.Errorf("Busy(200, 200): %d looks at the context, want one per 1,024 of its 40,000 macrosteps", looks)
	}
}

// TestWideParallelHitsTheBound: 2,000 parallel regions have 2^2000
// configurations; the flattener stops at the MLM state bound with the
// positioned error, having built no more than the bound lets it.
func TestWideParallelHitsTheBound(t *testing.T) {
	for _, tc := range []struct {
		regions int
		opts    mlm.Options
		want    string
	}{
		{2000, mlm.Options{}, "p.scxml:2:1: flattening exceeds 10000 MLM states (parallel regions multiply); raise the bound (bounds.max_mlm_states in .setbot.yml, --max-mlm-states on the command line) or split the model"},
		{400, mlm.Options{MaxStates: 500}, "p.scxml:2:1: flattening exceeds 500 MLM states (parallel regions multiply); raise the bound (bounds.max_mlm_states in .setbot.yml, --max-mlm-states on the command line) or split the model"},
	} {
		m := read(t, hostile.Parallel(tc.regions))
		start := time.Now()
		mach, err := mlm.Flatten(t.Context(), m, tc.opts)
		t.Logf("Parallel(%d): %v", tc.regions, time.Since(start).Round(time.Millisecond))
		var errs source.ErrorList
		if mach != nil || !errors.As(err, &errs) || err.Error() != tc.want {
			t.Errorf("Parallel(%d): machine %v, error %v; want the model error\n%s", tc.regions, mach != nil, err, tc.want)
		}
	}
}

// invoking is a model whose state on invokes a child of regions parallel
// regions (hostile.Parallel's): flattened, then composed with its parent.
func invoking(regions int) []byte {
	var b strings.Builder
	b.WriteString(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="off">
<state id="off"><transition event="on" target="on"/></state>
<state id="on"><transition event="off" target="off"/><invoke id="kid"><content><scxml initial="p"><parallel id="p">`)
	for i := range regions {
		fmt.Fprintf(&b, `<state id="r%d"><state id="r%da"><transition event="e%d" target="r%db"/></state><state id="r%db"/></state>`, i, i, i, i, i)
	}
	b.WriteString("</parallel></scxml></content></invoke></state></scxml>\n")
	return []byte(b.String())
}

// TestFlattenStopsWhenCancelled: a flattening whose context is done
// returns the context's error, not a model error, whether the context was
// done before it started or ends while it runs, at its first look at the
// context or at its last (in the composition, for a model that invokes
// another). The models are within the bounds: left alone, they flatten.
func TestFlattenStopsWhenCancelled(t *testing.T) {
	models := []struct {
		name string
		src  []byte
	}{
		{"Parallel(13), 8,192 states", hostile.Parallel(13)},
		{"Busy(150, 150), 22,500 macrosteps", hostile.Busy(150, 150)},
		{"a child of 10 regions invoked", invoking(10)},
	}
	for _, tc := range models {
		m := read(t, tc.src)
		t.Run(tc.name, func(t *testing.T) {
			cancelled, cancel := context.WithCancel(t.Context())
			cancel()
			past, stop := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
			defer stop()
			for _, ctx := range []context.Context{cancelled, past} {
				if mach, err := mlm.Flatten(ctx, m, mlm.Options{}); mach != nil || !errors.Is(err, ctx.Err()) {
					t.Errorf("context done before: machine %v, error %v; want %v", mach != nil, err, ctx.Err())
				}
			}

			// Left alone, the model flattens, looking at its context this
			// many times.
			looks := 0
			defer mlm.SetCheckHook(func() { looks++ })()
			if _, err := mlm.Flatten(t.Context(), m, mlm.Options{}); err != nil {
				t.Fatalf("flattening without a cancel: %v", err)
			}
			all := looks
			if all == 0 {
				t.Fatal("the flattening never looked at its context")
			}

			// Cancelled from another goroutine at the flattener's first look
			// at its context, which waits until it is.
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			started, done := make(chan struct{}), make(chan struct{})
			var once sync.Once
			looks = 0
			mlm.SetCheckHook(func() {
				looks++
				once.Do(func() {
					close(started)
					<-done
				})
			})
			go func() {
				<-started
				cancel()
				close(done)
			}()
			if mach, err := mlm.Flatten(ctx, m, mlm.Options{}); mach != nil || !errors.Is(err, context.Canceled) || looks != 1 {
				t.Errorf("cancelled at the first look: machine %v, error %v after %d looks; want %v at the first", mach != nil, err, looks, context.Canceled)
			}

			// Cancelled at the last look.
			ctx, cancel = context.WithCancel(t.Context())
			defer cancel()
			looks = 0
			mlm.SetCheckHook(func() {
				if looks++; looks == all {
					cancel()
				}
			})
			if mach, err := mlm.Flatten(ctx, m, mlm.Options{}); mach != nil || !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled at the last of %d looks: machine %v, error %v; want %v", all, mach != nil, err, context.Canceled)
			}
		})
	}
}
