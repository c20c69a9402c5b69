package modelgen

import "fmt"

// ECMAScript as the models people keep write it (Options.Loose), each
// construct read by setbot as README's "ECMAScript as people write it"
// says, so that the differential tests hold every executor to one reading.

// addLoose gives the input u0, which no <setbot:event> declares, the
// transitions that read its parameter p: a guard that compares it with a
// number, which makes it a number, and a script that reads it through a
// local and assigns the global g0 (so that every model that reads g0
// assigns it somewhere), then calls bumpg, which assigns g0 again on one
// branch; the event ud, which the machine sends itself
// with g0 as its data and with none; and the event ux, which it raises
// without data and sends with a parameter.
func (g *gen) addLoose() {
	leaves := g.anyState(func(s *state) bool { return s.kind == atomic })
	for range 2 {
		from, to := pick(g, leaves), pick(g, leaves)
		t := &transition{events: []string{"u0"}, cond: fmt.Sprintf("_event.data.p > %d", g.intn(5)), targets: []*state{to}, raiseOK: true}
		t.body = []*elem{{name: "script", lines: []string{
			"var n = _event.data.p;",
			"g0 = n % 10;",
			"bumpg(n);",
			fmt.Sprintf("if (n == %d) {", g.between(1, 6)),
			fmt.Sprintf("  %s = %d;", pick(g, g.vars), g.intn(10)),
			"}",
		}}}
		from.trans = append(from.trans, t)
	}
	// ud: sent to the machine with the global g0 as its data, which may
	// be undefined, and with no data at all (undefined too).
	a, b := pick(g, leaves), pick(g, leaves)
	a.onentry = append(a.onentry, newElem("send", "event", "ud").add(newElem("content", "expr", "g0")))
	b.onentry = append(b.onentry, newElem("send", "event", "ud"))
	// doc.root.foo is given shape, of other fields, on entering a state,
	// so that every model that reads its field a holds it.
	pick(g, leaves).onentry = append(pick(g, leaves).onentry, newElem("assign", "location", "doc.root.foo", "expr", "shape"))
	on := pick(g, leaves)
	on.trans = append(on.trans,
		&transition{events: []string{"ud"}, cond: "_event.data === undefined", body: []*elem{newElem("assign", "location", pick(g, g.vars), "expr", fmt.Sprint(g.intn(10)))}},
		&transition{events: []string{"ud"}, cond: fmt.Sprintf("_event.data == %d", g.intn(10)), body: []*elem{newElem("assign", "location", pick(g, g.vars), "expr", fmt.Sprint(g.intn(10)))}})
	// ux: raised without data and sent with q, which an if reads: where
	// it came without data, error.execution, and the if does not run.
	c := pick(g, leaves)
	c.onentry = append(c.onentry, newElem("raise", "event", "ux"))
	d := pick(g, leaves)
	d.onentry = append(d.onentry, newElem("send", "event", "ux").add(newElem("param", "name", "q", "expr", fmt.Sprint(g.intn(3)))))
	check := newElem("if", "cond", fmt.Sprintf("_event.data.q == %d", g.intn(3))).add(newElem("assign", "location", pick(g, g.vars), "expr", fmt.Sprint(g.intn(10))))
	on = pick(g, leaves)
	on.trans = append(on.trans, &transition{events: []string{"ux"}, body: []*elem{check}})
}

// looseAtom returns a condition on the global g0, which scripts assign
// without declaring it (undefined until then), an In() of a state the
// model does not have (false), the array arr and the object codes, read
// by a key computed as the machine runs, the fields of doc.root.foo,
// which holds {bar: 1} or shape ({a: {b: 2}}), a string joined with an
// int or with g0, a Date stamped at start-up and its getters, or, in the guards of input
// events, new Date() (a black box) and a read of doc.root.foo.a.b, which
// throws (error.execution) where foo holds no a.
func (g *gen) looseAtom(c ctx) string {
	v := pick(g, g.vars)
	switch g.intn(9) {
	case 8:
		// A time stamped at start-up (stamp, a Date, and year, its
		// getter's int): black boxes read in any guard, an eventless
		// one of the start too, where they decide how the machine
		// starts; typeof of a Date is "object".
		return pick(g, []string{fmt.Sprintf("year > %d", g.intn(3)-1), fmt.Sprintf("stamp.getHours() < %d", g.intn(3)),
			"typeof stamp == 'object'", fmt.Sprintf("new Date() - stamp >= %d", g.intn(2))})
	case 7:
		// + with a string operand joins strings, the int converted, and
		// g0, undefined until a script assigns it, spelled.
		return fmt.Sprintf("'k' + %s %s 'k%d'", pick(g, []string{v, "g0"}), pick(g, []string{"==", "!="}), g.intn(10))
	case 0:
		return pick(g, []string{"g0 === undefined", fmt.Sprintf("g0 == %d", g.intn(10)), "g0 !== undefined"})
	case 1:
		return "In('nowhere')"
	case 2:
		return fmt.Sprintf("arr[%d] %s %d", g.intn(3), pick(g, comparisons), g.intn(10))
	case 3:
		return fmt.Sprintf("codes[%s > 4 ? 'a' : 'b.c'] %s %d", v, pick(g, []string{"==", "!=", "===", "!=="}), g.intn(3))
	case 4:
		return fmt.Sprintf("codes[%s > 6 ? 'b.c' : 'zz'] === undefined", v)
	case 5:
		return pick(g, []string{"doc.root.foo.bar === undefined", "doc.root.foo.a && doc.root.foo.a.b == 2", "typeof doc.root.foo.a == 'undefined'"})
	case 6:
		if c.guard && len(c.intParams()) > 0 {
			// only in the guard of an input: an eventless cond that
			// throws would raise error.execution without end, and
			// elsewhere the read is refused
			return fmt.Sprintf("doc.root.foo.a.b %s %d", pick(g, comparisons), g.intn(4))
		}
	}
	if len(c.intParams()) > 0 {
		// a black box: only where an input is processed (one the start
		// read would give the machine two ways to start)
		return fmt.Sprintf("new Date() %s %d", pick(g, comparisons), g.intn(10))
	}
	return "arr.length == 3"
}

// looseStatement returns an assignment of the undeclared global g0 (of an
// int, or of a field read by a computed key, which may be undefined), of
// doc.root.foo (objects of different fields), of a field of codes by a
// computed key, of the array arr through new Array(...), push or an
// element, a throw under an if, or, at the
// top of a script at the top of its block, a write to a field of ext,
// which nothing binds (scxmlrun's _data): the last two raise
// error.execution and skip the rest of the block; so does such a write in
// a branch of an if. Or it runs a function over arr's elements with
// forEach, or calls bumpg, which assigns g0 on one branch, in an if's
// condition.
func (g *gen) looseStatement(c ctx, depth int) []string {
	v := pick(g, g.vars)
	switch g.intn(7) {
	case 5:
		return []string{"arr.forEach(function (e, k) {", fmt.Sprintf("  %s = (%s + e * k) %% 10;", v, v), "});"}
	case 6:
		return []string{fmt.Sprintf("if (%s > 6) {", v), fmt.Sprintf("  %s = 0;", v), "  ext.w = 1;", "}"}
	}
	switch g.intn(9) {
	case 7:
		// an element within arr, or one appended at its length
		return []string{fmt.Sprintf("arr[%s %% 4] = %s;", pick(g, g.vars), pick(g, g.vars))}
	case 4:
		// arr grows in place, up to its bound (a run past it stops every
		// executor with the same error).
		return []string{fmt.Sprintf("arr.push(%s);", pick(g, g.vars))}
	case 5:
		// an object of other fields (doc.root.foo holds both), or one of
		// its own
		return []string{pick(g, []string{"doc.root.foo = shape;", "doc.root.foo = {bar: " + pick(g, g.vars) + "};"})}
	case 6:
		// a field written by a key computed as the machine runs
		return []string{fmt.Sprintf("codes[%s > 4 ? 'a' : 'b.c'] = %s;", pick(g, g.vars), pick(g, g.vars))}
	case 0:
		return []string{fmt.Sprintf("g0 = %s;", g.value(c))}
	case 1:
		return []string{fmt.Sprintf("arr = new Array(%s, %s, %d);", pick(g, g.vars), pick(g, g.vars), g.intn(10))}
	case 2:
		if depth == 0 { // a throw in a nested block is refused
			return []string{fmt.Sprintf("if (%s > 6) throw new Error('%s');", pick(g, g.vars), pick(g, g.vars))}
		}
	case 3:
		if c.top && depth == 0 && g.chance(0.3) {
			return []string{fmt.Sprintf("ext.v = %s;", g.value(c))}
		}
	case 8:
		// a call of bumpg, which assigns g0 on one branch, whose value
		// the if uses
		return []string{fmt.Sprintf("if (bumpg(%s)) {", pick(g, g.vars)), "  doc.root.foo = shape;", "}"}
	}
	return []string{fmt.Sprintf("g0 = codes[%s > 4 ? 'a' : 'zz'];", pick(g, g.vars))}
}

// addLooseDict gives Loose models the dictionary dict, {} at first: a
// state's entry writes it by a key computed as the machine runs, another
// adds to the value of such a key or sets it where no entry has the key,
// and transitions compare its values, test that a key has none, and test
// a key with in. The keys are 'k' and a variable modulo 4, at most 7 of
// them, within the keys bound.
func (g *gen) addLooseDict() {
	leaves := g.anyState(func(s *state) bool { return s.kind == atomic })
	key := func() string { return fmt.Sprintf("'k' + %s %% 4", pick(g, g.vars)) }
	a, b := pick(g, leaves), pick(g, leaves)
	a.onentry = append(a.onentry, &elem{name: "script", lines: []string{fmt.Sprintf("dict[%s] = %s;", key(), pick(g, g.vars))}})
	k := key()
	b.onentry = append(b.onentry, &elem{name: "script", lines: []string{
		fmt.Sprintf("if (dict[%s] === undefined) dict[%s] = %d; else dict[%s] += %d;", k, k, g.intn(10), k, g.between(1, 4)),
	}})
	assign := func() []*elem {
		return []*elem{newElem("assign", "location", pick(g, g.vars), "expr", fmt.Sprint(g.intn(10)))}
	}
	on := pick(g, leaves)
	on.trans = append(on.trans,
		&transition{events: []string{"u0"}, cond: fmt.Sprintf("dict[%s] == %d", key(), g.intn(10)), body: assign()},
		&transition{events: []string{"u0"}, cond: fmt.Sprintf("typeof dict[%s] == 'undefined'", key()), body: assign()},
		&transition{events: []string{"u0"}, cond: fmt.Sprintf("%s in dict", key()), body: assign()})
}
