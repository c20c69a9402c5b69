// Package z3 implements solver.Solver with Z3's C API through a small cgo
// binding of its own (link with -lz3, libz3-dev 4.8 or later).
//
// The binding uses a reference-counted Z3 context. Every Z3 object the
// package keeps (terms, sorts, solvers, models, parameter sets) holds a
// reference that it releases; Z3's error handler is disabled and the error
// code is checked after each call that can fail, so that a Z3 error becomes
// a Go error instead of ending the process. No Go pointer is stored in C
// memory.
package z3

/*
#cgo LDFLAGS: -lz3
#include <stdint.h>
#include <stdlib.h>
#include <z3.h>

// Exported by libz3 but missing from the 4.8 headers.
extern uint64_t Z3_get_estimated_alloc_size(void);
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// ast is a Z3 term (Z3_ast). Every ast the package keeps holds a reference.
type ast = C.Z3_ast

// context wraps a reference-counted Z3 context.
type context struct {
	c C.Z3_context
}

func newContext() (*context, error) {
	cfg := C.Z3_mk_config()
	if cfg == nil {
		return nil, errors.New("z3: cannot create configuration")
	}
	c := C.Z3_mk_context_rc(cfg)
	C.Z3_del_config(cfg)
	if c == nil {
		return nil, errors.New("z3: cannot create context")
	}
	// Without a handler Z3 records errors instead of exiting.
	C.Z3_set_error_handler(c, nil)
	return &context{c: c}, nil
}

func (x *context) del() {
	C.Z3_del_context(x.c)
	x.c = nil
}

// err returns the error of the last Z3 call, if any.
func (x *context) err(what string) error {
	code := C.Z3_get_error_code(x.c)
	if code == C.Z3_OK {
		return nil
	}
	msg := C.GoString(C.Z3_get_error_msg(x.c, code))
	return fmt.Errorf("z3: %s: %s", what, msg)
}

// result checks the ast returned by the last call.
func (x *context) result(a ast, what string) (ast, error) {
	if err := x.err(what); err != nil {
		return nil, err
	}
	if a == nil {
		return nil, fmt.Errorf("z3: %s: no result", what)
	}
	return a, nil
}

func (x *context) incRef(a ast) { C.Z3_inc_ref(x.c, a) }
func (x *context) decRef(a ast) { C.Z3_dec_ref(x.c, a) }

func (x *context) intSort() ast {
	return C.Z3_sort_to_ast(x.c, C.Z3_mk_int_sort(x.c))
}

func (x *context) boolSort() ast {
	return C.Z3_sort_to_ast(x.c, C.Z3_mk_bool_sort(x.c))
}

func (x *context) mkInt(v int64, intSort ast) (ast, error) {
	return x.result(C.Z3_mk_int64(x.c, C.int64_t(v), C.Z3_sort(unsafe.Pointer(intSort))), "integer constant")
}

func (x *context) mkBool(v bool) (ast, error) {
	if v {
		return x.result(C.Z3_mk_true(x.c), "true")
	}
	return x.result(C.Z3_mk_false(x.c), "false")
}

// mkVar returns the constant named name of the given sort.
func (x *context) mkVar(name string, sort ast) (ast, error) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	sym := C.Z3_mk_string_symbol(x.c, cs)
	if err := x.err("symbol"); err != nil {
		return nil, err
	}
	return x.result(C.Z3_mk_const(x.c, sym, C.Z3_sort(unsafe.Pointer(sort))), "variable "+name)
}

// kind names the Z3 constructors the translation uses.
type kind uint8

const (
	kNeg kind = iota
	kNot
	kAdd
	kSub
	kMul
	kDiv // Euclidean
	kMod // Euclidean
	kEq
	kLt
	kLe
	kAnd
	kOr
	kIte
)

var kindName = [...]string{"neg", "not", "add", "sub", "mul", "div", "mod", "eq", "lt", "le",
	"and", "or", "ite"}

// mk builds the term of the given kind from one, two or three operands.
func (x *context) mk(k kind, args ...ast) (ast, error) {
	c := x.c
	var r ast
	switch k {
	case kNeg:
		r = C.Z3_mk_unary_minus(c, args[0])
	case kNot:
		r = C.Z3_mk_not(c, args[0])
	case kAdd:
		r = C.Z3_mk_add(c, 2, &args[0])
	case kSub:
		r = C.Z3_mk_sub(c, 2, &args[0])
	case kMul:
		r = C.Z3_mk_mul(c, 2, &args[0])
	case kDiv:
		r = C.Z3_mk_div(c, args[0], args[1])
	case kMod:
		r = C.Z3_mk_mod(c, args[0], args[1])
	case kEq:
		r = C.Z3_mk_eq(c, args[0], args[1])
	case kLt:
		r = C.Z3_mk_lt(c, args[0], args[1])
	case kLe:
		r = C.Z3_mk_le(c, args[0], args[1])
	case kAnd:
		r = C.Z3_mk_and(c, 2, &args[0])
	case kOr:
		r = C.Z3_mk_or(c, 2, &args[0])
	case kIte:
		r = C.Z3_mk_ite(c, args[0], args[1], args[2])
	default:
		return nil, fmt.Errorf("z3: unknown constructor %d", k)
	}
	return x.result(r, kindName[k])
}

// lbool is a Z3 three-valued result.
type lbool int

const (
	lFalse lbool = -1
	lUndef lbool = 0
	lTrue  lbool = 1
)

// solverObj wraps a Z3_solver (one reference held).
type solverObj struct {
	s C.Z3_solver
}

func (x *context) newSolver() (solverObj, error) {
	s := C.Z3_mk_simple_solver(x.c)
	if err := x.err("new solver"); err != nil {
		return solverObj{}, err
	}
	if s == nil {
		return solverObj{}, errors.New("z3: new solver: no result")
	}
	C.Z3_solver_inc_ref(x.c, s)
	return solverObj{s}, nil
}

func (x *context) delSolver(s solverObj) {
	if s.s != nil {
		C.Z3_solver_dec_ref(x.c, s.s)
	}
}

// setParams sets the solver's timeout in milliseconds (0: none) and stops
// Z3 from installing its own SIGINT handler during checks.
func (x *context) setParams(s solverObj, timeoutMS uint32) error {
	p := C.Z3_mk_params(x.c)
	if err := x.err("params"); err != nil {
		return err
	}
	C.Z3_params_inc_ref(x.c, p)
	defer C.Z3_params_dec_ref(x.c, p)
	timeout := C.CString("timeout")
	defer C.free(unsafe.Pointer(timeout))
	ctrlC := C.CString("ctrl_c")
	defer C.free(unsafe.Pointer(ctrlC))
	ms := C.uint(timeoutMS)
	if timeoutMS == 0 {
		ms = C.uint(^uint32(0)) // Z3's "no timeout"
	}
	C.Z3_params_set_uint(x.c, p, C.Z3_mk_string_symbol(x.c, timeout), ms)
	C.Z3_params_set_bool(x.c, p, C.Z3_mk_string_symbol(x.c, ctrlC), false)
	C.Z3_solver_set_params(x.c, s.s, p)
	return x.err("set params")
}

func (x *context) assert(s solverObj, a ast) error {
	C.Z3_solver_assert(x.c, s.s, a)
	return x.err("assert")
}

func (x *context) push(s solverObj) error {
	C.Z3_solver_push(x.c, s.s)
	return x.err("push")
}

func (x *context) pop(s solverObj, n int) error {
	C.Z3_solver_pop(x.c, s.s, C.uint(n))
	return x.err("pop")
}

// check checks the solver's assertions.
func (x *context) check(s solverObj) (lbool, error) {
	r := C.Z3_solver_check(x.c, s.s)
	if err := x.err("check"); err != nil {
		return lUndef, err
	}
	return lbool(r), nil
}

// model wraps a Z3_model (one reference held).
type model struct {
	m C.Z3_model
}

func (x *context) getModel(s solverObj) (model, error) {
	m := C.Z3_solver_get_model(x.c, s.s)
	if err := x.err("model"); err != nil {
		return model{}, err
	}
	if m == nil {
		return model{}, errors.New("z3: model: no result")
	}
	C.Z3_model_inc_ref(x.c, m)
	return model{m}, nil
}

func (x *context) delModel(m model) { C.Z3_model_dec_ref(x.c, m.m) }

// evalInt returns a's value in m (with model completion). fits is false
// when the value is not a numeral that fits in an int64.
func (x *context) evalInt(m model, a ast) (v int64, fits bool, err error) {
	var out ast
	ok := C.Z3_model_eval(x.c, m.m, a, true, &out)
	if err := x.err("eval"); err != nil {
		return 0, false, err
	}
	if !ok || out == nil {
		return 0, false, errors.New("z3: eval: no value")
	}
	C.Z3_inc_ref(x.c, out)
	defer C.Z3_dec_ref(x.c, out)
	if !C.Z3_is_numeral_ast(x.c, out) {
		return 0, false, errors.New("z3: eval: value is not a numeral")
	}
	var n C.int64_t
	if !C.Z3_get_numeral_int64(x.c, out, &n) {
		return 0, false, x.err("numeral")
	}
	return int64(n), true, nil
}

// evalBool returns a's value in m (with model completion).
func (x *context) evalBool(m model, a ast) (bool, error) {
	var out ast
	ok := C.Z3_model_eval(x.c, m.m, a, true, &out)
	if err := x.err("eval"); err != nil {
		return false, err
	}
	if !ok || out == nil {
		return false, errors.New("z3: eval: no value")
	}
	C.Z3_inc_ref(x.c, out)
	defer C.Z3_dec_ref(x.c, out)
	switch C.Z3_get_bool_value(x.c, out) {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	return false, errors.New("z3: eval: value is not a boolean constant")
}

// allocSize returns Z3's estimate of the memory it has allocated (all
// contexts), in bytes.
func allocSize() uint64 { return uint64(C.Z3_get_estimated_alloc_size()) }
