package mlm_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
)

// xnode is a raw XML element: names keep their prefixes, so the document can
// be written back as it was, up to layout.
type xnode struct {
	name  string
	attrs []xml.Attr
	kids  []*xnode
	text  string
}

func parseRaw(t *testing.T, src []byte) *xnode {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(src))
	var stack []*xnode
	var root *xnode
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return root
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &xnode{name: qname(tok.Name), attrs: append([]xml.Attr(nil), tok.Attr...)}
			if len(stack) > 0 {
				stack[len(stack)-1].kids = append(stack[len(stack)-1].kids, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tok)
			}
		}
	}
}

func qname(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

func (n *xnode) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if qname(a.Name) == name {
			return a.Value, true
		}
	}
	return "", false
}

// write serialises n in another layout: no indentation, attributes in
// reverse order, text trimmed, comments gone.
func (n *xnode) write(w *bytes.Buffer) {
	w.WriteString("<" + n.name)
	for i := len(n.attrs) - 1; i >= 0; i-- {
		a := n.attrs[i]
		w.WriteString(" " + qname(a.Name) + "='")
		xml.EscapeText(w, []byte(a.Value))
		w.WriteString("'")
	}
	w.WriteString(">")
	if txt := strings.TrimSpace(n.text); txt != "" && len(n.kids) == 0 {
		w.WriteString("<![CDATA[" + txt + "]]>")
	}
	for _, k := range n.kids {
		k.write(w)
	}
	w.WriteString("</" + n.name + ">")
}

// overlap reports whether two transitions can compete for one event, so
// that their order is their priority and must be kept.
func overlap(a, b *xnode) bool {
	ea, _ := a.attr("event")
	eb, _ := b.attr("event")
	if ea == "" || eb == "" {
		return ea == eb
	}
	for _, x := range strings.Fields(ea) {
		for _, y := range strings.Fields(eb) {
			for _, name := range []string{strings.TrimSuffix(x, ".*"), strings.TrimSuffix(y, ".*")} {
				if model.DescriptorMatches(x, name) && model.DescriptorMatches(y, name) {
					return true
				}
			}
		}
	}
	return false
}

// shuffle permutes, everywhere in the tree, the child states of compound
// states whose initial state is named, and transitions that do not compete
// for an event. Nothing it does changes the behaviour of the machine.
func shuffle(n *xnode, r *rand.Rand) {
	var stateSlots, transSlots []int
	for i, k := range n.kids {
		switch k.name {
		case "state", "final", "parallel":
			stateSlots = append(stateSlots, i)
		case "transition":
			transSlots = append(transSlots, i)
		}
	}
	_, named := n.attr("initial")
	if n.name != "parallel" && named {
		states := make([]*xnode, len(stateSlots))
		for i, s := range stateSlots {
			states[i] = n.kids[s]
		}
		r.Shuffle(len(states), func(i, j int) { states[i], states[j] = states[j], states[i] })
		for i, s := range stateSlots {
			n.kids[s] = states[i]
		}
	}
	// A random topological order: pick any transition that no earlier,
	// competing transition still precedes.
	pending := make([]*xnode, len(transSlots))
	for i, s := range transSlots {
		pending[i] = n.kids[s]
	}
	for _, slot := range transSlots {
		var ready []int
		for i, t := range pending {
			free := true
			for _, u := range pending[:i] {
				if overlap(t, u) {
					free = false
					break
				}
			}
			if free {
				ready = append(ready, i)
			}
		}
		pick := ready[r.Intn(len(ready))]
		n.kids[slot] = pending[pick]
		pending = append(pending[:pick], pending[pick+1:]...)
	}
	for _, k := range n.kids {
		shuffle(k, r)
	}
}

func machineOf(t *testing.T, name string, src []byte) *mlm.Machine {
	t.Helper()
	// Files the model names (a black-box function's table) are read from
	// the directory of the file it came from.
	dir := filepath.Dir(strings.Split(name, "#")[0])
	read := func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, rel)) }
	mach, err := load.Bytes(context.Background(), name, src, load.Options{Read: scxml.Options{ReadFile: read}})
	if err != nil {
		t.Fatalf("loading %s:\n%v\n%s", name, err, src)
	}
	return mach
}

func keys(m *mlm.Machine) string {
	var b strings.Builder
	for _, t := range append(append([]*mlm.Transition(nil), m.Initial...), m.Transitions...) {
		b.WriteString(t.Key + "\n")
	}
	return b.String()
}

// TestReorderAndReformatKeepKeysAndHash rewrites every model with its states
// and non-competing transitions shuffled, attributes reversed, comments
// dropped and the layout changed; keys and hash must not move.
func TestReorderAndReformatKeepKeysAndHash(t *testing.T) {
	features, _ := filepath.Glob("testdata/features/*.scxml")
	examples, _ := filepath.Glob("../../examples/*.scxml")
	for _, path := range append(features, examples...) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := machineOf(t, path, src)
		for seed := int64(1); seed <= 5; seed++ {
			root := parseRaw(t, src)
			shuffle(root, rand.New(rand.NewSource(seed)))
			var buf bytes.Buffer
			root.write(&buf)
			got := machineOf(t, fmt.Sprintf("%s#%d", path, seed), buf.Bytes())
			if got.Hash != want.Hash || keys(got) != keys(want) {
				t.Errorf("%s, shuffle %d: hash %s, want %s\nkeys:\n%s\nwant:\n%s\ndocument:\n%s",
					path, seed, got.Hash, want.Hash, keys(got), keys(want), buf.String())
			}
		}
	}
}

// TestHashSeesBehaviour: swapping two competing transitions changes their
// priority, and so the machine and its hash.
func TestHashSeesBehaviour(t *testing.T) {
	src, err := os.ReadFile("testdata/features/priority.scxml")
	if err != nil {
		t.Fatal(err)
	}
	swapped := strings.Replace(string(src),
		`<transition event="e" cond="_event.data.n == 1" target="One"/>
      <transition event="e" cond="_event.data.n == 2" target="Two"/>`,
		`<transition event="e" cond="_event.data.n == 2" target="Two"/>
      <transition event="e" cond="_event.data.n == 1" target="One"/>`, 1)
	if swapped == string(src) {
		t.Fatal("the test's replacement did not apply")
	}
	a := machineOf(t, "priority.scxml", src)
	b := machineOf(t, "swapped.scxml", []byte(swapped))
	if a.Hash == b.Hash {
		t.Error("swapping two competing transitions left the hash unchanged")
	}
}
