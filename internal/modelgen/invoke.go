package modelgen

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The black-box function Options.Functions declares, and its table file
// (relative to the model; Table writes it).
const (
	FunctionName = "f"
	TableFile    = "f.csv"
)

// InvokeID is the id of the <invoke> Options.Invoke adds.
const InvokeID = "w1"

// addInvoke gives one atomic state an <invoke> of an inline child machine:
// a param sets the child's variable from one of the parent's, the child
// sends pong to the parent when it starts and finishes on the first input
// event once its variable is large enough (which it sees only when the
// invoke autoforwards), and the parent's finalize updates a variable on
// every event of the child. The state leaves on pong, when a condition
// holds, and on the child's done.invoke event.
func (g *gen) addInvoke() {
	hosts := g.anyState(func(s *state) bool { return s.kind == atomic })
	if len(hosts) == 0 {
		return
	}
	s := pick(g, hosts)
	v, last := pick(g, g.vars), g.vars[len(g.vars)-1]
	in := g.inputs[0].name
	child := newElem("scxml", "initial", "W0", "version", "1.0", "datamodel", "ecmascript").add(
		newElem("datamodel").add(newElem("data", "id", "k", "expr", "0")),
		newElem("state", "id", "W0").add(
			newElem("onentry").add(newElem("send", "event", "pong", "target", "#_parent")),
			newElem("transition", "event", in, "cond", fmt.Sprintf("k > %d", g.between(1, 8)), "target", "W1")),
		newElem("final", "id", "W1"))
	s.invoke = newElem("invoke", "id", InvokeID, "autoforward", fmt.Sprint(g.chance(0.5))).add(
		newElem("param", "name", "k", "expr", v),
		newElem("content").add(child),
		newElem("finalize").add(newElem("assign", "location", last, "expr", fmt.Sprintf("(%s + %d) %% 10", last, g.between(1, 8)))))
	others := g.anyState(func(x *state) bool { return x != s && x.kind != history && x.kind != final })
	if len(others) == 0 {
		return
	}
	pong := &transition{events: []string{"pong"}, cond: g.cond(ctx{}), targets: []*state{pick(g, others)}}
	s.trans = append(s.trans, pong, &transition{events: []string{"done.invoke." + InvokeID}, targets: []*state{pick(g, others)}})
}

// addFunction makes one or two transitions on input events assign a
// variable the black-box function's result on another variable.
func (g *gen) addFunction() {
	var sites []*transition
	for _, s := range g.states {
		for _, t := range s.trans {
			if t.raiseOK && t.events != nil {
				sites = append(sites, t)
			}
		}
	}
	for i := 0; i < 2 && len(sites) > 0; i++ {
		t := pick(g, sites)
		t.body = append(t.body, newElem("assign", "location", pick(g, g.vars), "expr", FunctionName+"("+pick(g, g.vars)+")"))
	}
}

// Table returns the table of the black-box function of Options.Functions
// (TableFile), deterministic in seed: results in [0, 9] for most
// arguments in [0, 9].
func Table(seed int64) []byte {
	r := rand.New(rand.NewPCG(uint64(seed), 0x7ab1e))
	var b strings.Builder
	b.WriteString("# x, f(x)\n")
	for x := range 10 {
		if r.Float64() < 0.7 {
			fmt.Fprintf(&b, "%d,%d\n", x, r.IntN(10))
		}
	}
	return []byte(b.String())
}

// MutateTable changes one row of a table of Table's form: another result,
// a row removed, or a row added for an argument it lacks.
func MutateTable(table []byte, seed int64) (out []byte, what string, ok bool) {
	r := rand.New(rand.NewPCG(uint64(seed), 0x7ab2e))
	lines := strings.Split(strings.TrimSuffix(string(table), "\n"), "\n")
	rows := make(map[int]int)
	var at []int
	for i, l := range lines {
		a, b, found := strings.Cut(l, ",")
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		if found && err1 == nil && err2 == nil {
			rows[x] = y
			at = append(at, i)
		}
	}
	switch k := r.IntN(3); {
	case k == 0 && len(at) > 0:
		i := at[r.IntN(len(at))]
		x, _ := strconv.Atoi(strings.Split(lines[i], ",")[0])
		lines[i] = fmt.Sprintf("%d,%d", x, (rows[x]+1)%10)
		what = fmt.Sprintf("the row of %s(%d) gives %d instead of %d", FunctionName, x, (rows[x]+1)%10, rows[x])
	case k == 1 && len(at) > 0:
		i := at[r.IntN(len(at))]
		what = fmt.Sprintf("the row %q of %s removed", lines[i], FunctionName)
		lines = append(lines[:i], lines[i+1:]...)
	default:
		for x := range 10 {
			if _, has := rows[x]; !has {
				lines = append(lines, fmt.Sprintf("%d,%d", x, r.IntN(10)))
				what = fmt.Sprintf("the row %q of %s added", lines[len(lines)-1], FunctionName)
				break
			}
		}
	}
	if what == "" {
		return nil, "", false
	}
	return []byte(strings.Join(lines, "\n") + "\n"), what, true
}

// MutateInvoke edits the <invoke> of a document: a param's value, the
// finalize code, autoforward, the child machine (its content) or the
// invoke's id. It returns ok=false when the document has no invoke.
func MutateInvoke(src []byte, seed int64) (out []byte, what string, ok bool) {
	c := newChart(src)
	if c == nil {
		return nil, "", false
	}
	m := &mutator{chart: c, r: rand.New(rand.NewPCG(uint64(seed), 0x1a40e))}
	var edits []func() string
	c.root.walk(func(inv *node) {
		if !inv.is("invoke") {
			return
		}
		id, _ := inv.attr("id")
		edits = append(edits, func() string {
			af, _ := inv.attr("autoforward")
			to := strconv.FormatBool(af != "true")
			inv.setAttr("autoforward", to)
			return fmt.Sprintf("autoforward of invoke %s set to %s", id, to)
		}, func() string {
			inv.setAttr("id", id+"b")
			return fmt.Sprintf("invoke %s renamed %sb", id, id)
		})
		inv.walk(func(n *node) {
			expr, hasExpr := n.attr("expr")
			cond, hasCond := n.attr("cond")
			switch {
			case n.is("param") && hasExpr:
				edits = append(edits, func() string {
					v := strconv.Itoa(m.r.IntN(10))
					n.setAttr("expr", v)
					return fmt.Sprintf("a param of invoke %s: %s instead of %s", id, v, expr)
				})
			case n.is("assign") && hasExpr && len(literals(expr)) > 0:
				edits = append(edits, func() string {
					e := m.flipLiteral(expr)
					n.setAttr("expr", e)
					return fmt.Sprintf("an assignment of invoke %s (finalize or child): %s instead of %s", id, e, expr)
				})
			case n.is("transition") && hasCond && len(literals(cond)) > 0:
				edits = append(edits, func() string {
					e := m.flipLiteral(cond)
					n.setAttr("cond", e)
					return fmt.Sprintf("a guard of the child of invoke %s: %s instead of %s", id, e, cond)
				})
			}
		})
	})
	if len(edits) == 0 {
		return nil, "", false
	}
	what = choose(m, edits)()
	return c.doc.bytes(), what, true
}
