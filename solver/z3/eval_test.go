package z3

import (
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/setbot/setbot/solver"
)

// TestOperators checks every operator against evaluation by Go: random
// terms with the operator at the root, variables pinned to random small
// values by equalities, and a fresh variable v == term whose model value
// is compared with the Go value.
func TestOperators(t *testing.T) {
	tab := solver.NewTable()
	s := newSolver(t, tab)
	v := tab.Var("v", solver.IntSort)
	vb := tab.Var("vb", solver.BoolSort)
	names := map[solver.Op]string{solver.OpNeg: "Neg", solver.OpAdd: "Add", solver.OpSub: "Sub",
		solver.OpMul: "Mul", solver.OpDiv: "Div", solver.OpRem: "Rem", solver.OpEq: "Eq",
		solver.OpLt: "Lt", solver.OpLe: "Le", solver.OpNot: "Not", solver.OpAnd: "And",
		solver.OpOr: "Or", solver.OpIte: "Ite"}
	type opCase struct {
		op      solver.Op
		boolish bool
	}
	var cases []opCase
	for _, op := range intOps {
		cases = append(cases, opCase{op, false})
	}
	for _, op := range boolOps {
		cases = append(cases, opCase{op, true})
	}
	for i, tc := range cases {
		name := names[tc.op]
		if tc.op == solver.OpIte {
			name += map[bool]string{false: "Int", true: "Bool"}[tc.boolish]
		}
		t.Run(name, func(t *testing.T) {
			g := newGen(tab, int64(100+i), 3, 2)
			rooted, checked := 0, 0
			for n := 0; n < 80; n++ {
				var term solver.Term
				depth := 1 + n%3
				if tc.boolish {
					term = g.boolOp(tc.op, depth)
				} else {
					term = g.intOp(tc.op, depth)
				}
				if tab.Op(term) == tc.op {
					rooted++
				}
				val := g.valuation(12)
				conj := pins(tab, val)
				var out solver.Term
				if tc.boolish {
					out = vb
					conj = append(conj, tab.Eq(vb, term))
				} else {
					out = v
					conj = append(conj, tab.Eq(v, term))
				}
				r, m, err := s.Model(conj, []solver.Term{out})
				if tc.boolish {
					if err != nil || r != solver.Sat {
						t.Fatalf("%s: Model = %v, %v", tab.String(term), r, err)
					}
					if want := evalBool(tab, term, val); m[out].Bool != want {
						t.Fatalf("%s under %s: z3 %v, Go %v", tab.String(term), show(tab, val), m[out].Bool, want)
					}
					checked++
					continue
				}
				want := evalInt(tab, term, val)
				if !want.IsInt64() {
					if r != solver.Sat || !errors.Is(err, solver.ErrOutOfRange) {
						t.Fatalf("%s = %v: Model = %v, %v, want ErrOutOfRange", tab.String(term), want, r, err)
					}
					continue
				}
				if err != nil || r != solver.Sat {
					t.Fatalf("%s: Model = %v, %v", tab.String(term), r, err)
				}
				if got := m[out].Int; got != want.Int64() {
					t.Fatalf("%s under %s: z3 %d, Go %d", tab.String(term), show(tab, val), got, want)
				}
				checked++
			}
			if rooted < 20 || checked < 40 { // Not folds into Lt and Le half the time
				t.Errorf("only %d terms with the operator at the root, %d checked", rooted, checked)
			}
		})
	}
}

func show(tab *solver.Table, val valuation) string {
	s := ""
	for x, v := range val {
		switch v.Sort {
		case solver.IntSort:
			s += fmt.Sprintf("%s=%d ", tab.Name(x), v.Int)
		case solver.StringSort:
			s += fmt.Sprintf("%s=%q ", tab.Name(x), v.Str)
		default:
			s += fmt.Sprintf("%s=%v ", tab.Name(x), v.Bool)
		}
	}
	return s
}

// TestDivRem compares Z3's C division and remainder with Go's (which
// truncate like C) for all x, y in [-20, 20], with the zero convention
// x/0 = 0 and x%0 = x, for a variable divisor and for a constant one.
func TestDivRem(t *testing.T) {
	tab := solver.NewTable()
	s := newSolver(t, tab)
	x := tab.Var("x", solver.IntSort)
	y := tab.Var("y", solver.IntSort)
	q := tab.Var("q", solver.IntSort)
	r := tab.Var("r", solver.IntSort)
	qc := tab.Var("qc", solver.IntSort)
	rc := tab.Var("rc", solver.IntSort)
	for a := int64(-20); a <= 20; a++ {
		for b := int64(-20); b <= 20; b++ {
			wq, wr := int64(0), a
			if b != 0 {
				wq, wr = a/b, a%b
			}
			conj := []solver.Term{
				tab.Eq(x, tab.Int(a)), tab.Eq(y, tab.Int(b)),
				tab.Eq(q, tab.Div(x, y)), tab.Eq(r, tab.Rem(x, y)),
				tab.Eq(qc, tab.Div(x, tab.Int(b))), tab.Eq(rc, tab.Rem(x, tab.Int(b))),
			}
			res, m, err := s.Model(conj, []solver.Term{q, r, qc, rc})
			if err != nil || res != solver.Sat {
				t.Fatalf("%d, %d: Model = %v, %v", a, b, res, err)
			}
			if m[q].Int != wq || m[r].Int != wr {
				t.Errorf("%d / %d = %d, %d %% %d = %d; want %d, %d", a, b, m[q].Int, a, b, m[r].Int, wq, wr)
			}
			if m[qc].Int != wq || m[rc].Int != wr {
				t.Errorf("constant divisor: %d / %d = %d, %d %% %d = %d; want %d, %d", a, b, m[qc].Int, a, b, m[rc].Int, wq, wr)
			}
		}
	}
	// Big operands, checked against math/big's truncated division.
	for _, p := range [][2]int64{{-9e18, 7}, {9e18, -7}, {-9e18, -3e9}, {123456789012345, -1000}} {
		wq, wr := new(big.Int).QuoRem(big.NewInt(p[0]), big.NewInt(p[1]), new(big.Int))
		conj := []solver.Term{tab.Eq(x, tab.Int(p[0])), tab.Eq(y, tab.Int(p[1])),
			tab.Eq(q, tab.Div(x, y)), tab.Eq(r, tab.Rem(x, y))}
		res, m, err := s.Model(conj, []solver.Term{q, r})
		if err != nil || res != solver.Sat {
			t.Fatalf("%d, %d: Model = %v, %v", p[0], p[1], res, err)
		}
		if m[q].Int != wq.Int64() || m[r].Int != wr.Int64() {
			t.Errorf("%d / %d: q %d r %d, want %v %v", p[0], p[1], m[q].Int, m[r].Int, wq, wr)
		}
	}
}
