package html

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/report"
)

// browser starts headless Chromium (Debian's package) for a test: skipped
// where it is not installed, except in CI (CI=true), where .ci/run
// installs it and its absence fails the test.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("Chromium is not installed: CI needs it for the report page's browser test (apt-get install chromium)")
		}
		t.Skip("Chromium is not installed (apt-get install chromium): the report page's browser test is skipped")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1300, 1000),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelTime(); cancel(); cancelAlloc() })
	return ctx
}

func writePage(t *testing.T, a *report.Analysis, o Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName(a))
	if err := os.WriteFile(path, []byte(render(t, a, o)), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + path
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// TestBrowser loads the page of the demo's triangle change (in both
// layouts) in headless Chromium, checks what it shows (the states, S1_S2 in red, the changed
// transition) and steps the unreachable state's witness: each step lights
// up another configuration and the transitions fired in it.
func TestBrowser(t *testing.T) {
	ctx := browser(t)
	for _, layout := range []Layout{LayoutDot, LayoutBoxes} {
		t.Run(string(layout), func(t *testing.T) {
			if layout == LayoutDot && dotPath() == "" {
				t.Skip("Graphviz's dot is not installed")
			}
			browseTriangle(t, ctx, layout)
		})
	}
}

func browseTriangle(t *testing.T, ctx context.Context, layout Layout) {
	a := demoAnalyses(t)[2]
	do(t, ctx, chromedp.Navigate(writePage(t, a, Options{Layout: layout})))
	const data = `JSON.parse(document.getElementById("data").textContent).models[0]`
	states := eval[int](t, ctx, `document.querySelectorAll("section.model .st").length`)
	if want := len(a.Models[0].HeadMachine.Source.States()) - 1; states != want {
		t.Errorf("the diagram has %d states, want %d", states, want)
	}
	unreachable := eval[bool](t, ctx, `document.getElementById(`+data+`.stateEl["S1_S2"]).classList.contains("unreachable")`)
	changed := eval[bool](t, ctx, `document.getElementById(`+data+`.transEl["S1_S1:checkIsTriangle>S1_S2"][0]).classList.contains("changed")`)
	if !unreachable || !changed {
		t.Errorf("S1_S2 marked unreachable: %v; the changed transition marked: %v; want both", unreachable, changed)
	}
	screenshot(t, ctx, "triangle.png")

	// The witness: the base's test that entered S1_S2, replayed at head,
	// where its last event, checkIsTriangle, finds no condition true.
	const active = `(function(){var d=` + data + `, names={};
		Object.keys(d.stateEl).forEach(function(s){names[d.stateEl[s]]=s});
		return Array.from(document.querySelectorAll("section.model .st.active")).map(function(e){return names[e.id]}).sort().join(",")})()`
	const fired = `document.querySelectorAll("section.model .tr.fired").length`
	do(t, ctx, chromedp.Click(chromedp.CSS(`.f-unreachable button.play`)))
	configs := []string{eval[string](t, ctx, active)}
	var firing []int
	for i := 1; i <= 3; i++ {
		do(t, ctx, chromedp.Click(chromedp.CSS(`.player .next`)))
		firing = append(firing, eval[int](t, ctx, fired))
		configs = append(configs, eval[string](t, ctx, active))
	}
	if want := []string{"S0", "S1,S1_S0", "S1,S1_S1", "S1,S1_S1"}; !slices.Equal(configs, want) {
		t.Errorf("the player's configurations are %q, want %q", configs, want)
	}
	if firing[0] == 0 || firing[1] == 0 || firing[2] != 0 {
		t.Errorf("fired transitions lit per step: %v, want some, some, none", firing)
	}
	if mismatch := eval[string](t, ctx, `document.querySelector(".player .mismatch").textContent`); mismatch != "S1_S2" {
		t.Errorf("the player shows the expected configuration %q, want S1_S2 (where the base went)", mismatch)
	}
	screenshot(t, ctx, "triangle-witness.png")
}

// largeAnalysis is an analysis of a generated model of 3,000 states (60
// compound states of 49 atomic ones each) with 100 tests of 30 events, for
// the page's load time.
func largeAnalysis(t testing.TB) *report.Analysis {
	t.Helper()
	const groups, per = 60, 49
	var b strings.Builder
	b.WriteString(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="G0">` + "\n")
	for g := 0; g < groups; g++ {
		fmt.Fprintf(&b, `<state id="G%d"><transition event="jump" target="G%d"/>`+"\n", g, (g+1)%groups)
		for s := 0; s < per; s++ {
			fmt.Fprintf(&b, `<state id="G%dS%d"><transition event="next" target="G%dS%d"/></state>`+"\n", g, s, g, (s+1)%per)
		}
		b.WriteString("</state>\n")
	}
	b.WriteString("</scxml>\n")
	m, err := load.Bytes(context.Background(), "large.scxml", []byte(b.String()), load.Options{Flatten: mlm.Options{MaxStates: 10000}})
	if err != nil {
		t.Fatal(err)
	}
	delta := &report.TestDelta{}
	for i := 0; i < 100; i++ {
		var steps []report.Step
		g, s := 0, 0
		for k := 0; k < 30; k++ {
			ev := "next"
			if (i+k)%7 == 0 {
				ev, g, s = "jump", (g+1)%groups, 0
			} else {
				s = (s + 1) % per
			}
			steps = append(steps, report.Step{Event: ev, Config: []string{fmt.Sprintf("G%dS%d", g, s)}})
		}
		delta.New = append(delta.New, report.Test{ID: fmt.Sprintf("t%d", i), Steps: steps})
	}
	ca := &report.ChangeAnalysis{TestDelta: delta, NewlyUnreachable: []report.StateRef{{State: "G59S48"}},
		Changes: []report.Change{{Kind: diffmap.GuardChanged, Subject: "G3S4:next>G3S5"}}}
	return &report.Analysis{Base: strings.Repeat("a", 40), Head: strings.Repeat("b", 40), Gate: report.Verdict{Conclusion: report.Failure},
		Models: []*report.Model{{Path: "large.scxml", Status: report.Modified, HeadMachine: m, ChangeAnalysis: ca}}}
}

// TestLargePageLoad loads the page of a 3,000-state analysis and logs how
// long it took (a figure, not an assertion: machines are noisy); the
// issue asks for under 2 s.
func TestLargePageLoad(t *testing.T) {
	ctx := browser(t)
	start := time.Now()
	url := writePage(t, largeAnalysis(t), Options{})
	rendered := time.Since(start)
	do(t, ctx, chromedp.Navigate("about:blank"))
	start = time.Now()
	do(t, ctx, chromedp.Navigate(url))
	states := eval[int](t, ctx, `document.querySelectorAll("section.model .st").length`)
	load := eval[float64](t, ctx, `(function(){var n=performance.getEntriesByType("navigation")[0]; return n.loadEventEnd - n.startTime})()`)
	wall := time.Since(start)
	if states != 3000 {
		t.Errorf("the page shows %d states, want 3000", states)
	}
	fi, _ := os.Stat(strings.TrimPrefix(url, "file://"))
	t.Logf("3,000-state page: %d bytes, rendered by setbot in %v; Chromium's load event after %.0f ms, %v until the DOM was queried",
		fi.Size(), rendered.Round(time.Millisecond), load, wall.Round(time.Millisecond))
	screenshot(t, ctx, "large.png")
}

// BenchmarkRenderLarge measures rendering the page of the 3,000-state
// analysis (the replay of its 100 tests and the box layout included).
func BenchmarkRenderLarge(b *testing.B) {
	a := largeAnalysis(b)
	for b.Loop() {
		if err := Write(context.Background(), io.Discard, a, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
