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

#ifdef __GLIBC__
#include <malloc.h>
#include <sys/mman.h>
#endif

// keepFreedMemory makes glibc's malloc serve blocks of up to 32 MB from
// its arenas and keep up to 256 MB freed at an arena's top instead of
// returning it to the system, so that a context's tables reuse the pages
// of a context deleted before (see newContext). Elsewhere it does nothing.
static void keepFreedMemory(void) {
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

// hugeArena asks the kernel for huge pages where the calling thread's
// malloc arena will hold the first context's tables: a block as large as
// those is allocated, advised MADV_HUGEPAGE (transparent huge pages in
// their "madvise" mode) and freed, and with keepFreedMemory the arena
// keeps it for the contexts. Touching 17 MB then takes a few faults
// instead of four thousand. Where huge pages are off, the advice is
// ignored.
static void hugeArena(void) {
#ifdef __GLIBC__
	size_t n = 24 << 20, huge = 2 << 20;
	char *p = malloc(n);
	if (p == NULL) {
		return;
	}
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(huge - 1);
	if (e > a) {
		madvise((void *)a, e - a, MADV_HUGEPAGE);
	}
	free(p);
#endif
}
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// Allocated returns Z3's estimate of the memory it has allocated, in bytes,
// over every context of the process (setbot bench curve reports it with
// the Go heap).
func Allocated() uint64 { return uint64(C.Z3_get_estimated_alloc_size()) }

// ast is a Z3 term (Z3_ast). Every ast the package keeps holds a reference.
type ast = C.Z3_ast

// context wraps a reference-counted Z3 context.
type context struct {
	c C.Z3_context
}

// newContext creates a context on the one OS thread that creates them all.
// Z3 4.8's context allocates and fills about 17 MB of tables when it is
// created (its term manager's hash tables), which the process touches for
// the first time unless malloc hands it pages freed before; an analysis
// creates five contexts or so, one after another, and those first touches
// were a fifth of the CPU an MSE analysis of AQS took as a command
// (docs/performance.md). glibc's malloc serves each thread from an arena
// of its own and frees a block to the arena it came from, so creating
// every context on one thread, with freed blocks kept in the arena
// (keepFreedMemory), lets each context reuse the previous one's pages.
// The context is the same whichever thread creates it: Z3's calls on it
// may come from any thread, as before.
func newContext() (*context, error) {
	makerOnce.Do(startMaker)
	reply := make(chan made, 1)
	makeRequests <- reply
	r := <-reply
	return r.ctx, r.err
}

// made is what the context maker answers.
type made struct {
	ctx *context
	err error
}

var (
	makerOnce    sync.Once
	makeRequests = make(chan chan made)
)

// startMaker starts the goroutine that creates the contexts, locked to its
// OS thread for the life of the process. It waits on a channel between
// requests and takes no CPU.
func startMaker() {
	C.keepFreedMemory()
	go func() {
		runtime.LockOSThread()
		C.hugeArena()
		for reply := range makeRequests {
			ctx, err := makeContext()
			reply <- made{ctx, err}
		}
	}()
}

// makeContext creates a context on the calling thread.
func makeContext() (*context, error) {
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

func (x *context) stringSort() ast {
	return C.Z3_sort_to_ast(x.c, C.Z3_mk_string_sort(x.c))
}

// bv32Sort is the sort of 32-bit vectors, for ECMAScript's bit operators.
func (x *context) bv32Sort() ast {
	return C.Z3_sort_to_ast(x.c, C.Z3_mk_bv_sort(x.c, 32))
}

// mkInt returns the numeral v of the given sort (integer or bit-vector).
func (x *context) mkInt(v int64, sort ast) (ast, error) {
	return x.result(C.Z3_mk_int64(x.c, C.int64_t(v), C.Z3_sort(unsafe.Pointer(sort))), "integer constant")
}

// maxChar is the last character of Z3 4.8's strings (its default "unicode"
// encoding): later code points have no Z3 character.
const maxChar = 0x2FFFF

// mkString returns the string constant s (valid UTF-8). Z3_mk_string reads
// escapes \u{h} and, in 4.8, takes every other byte as a character of its
// own (sign-extended beyond ASCII: "é" would become two bogus characters);
// Z3_mk_lstring also takes bytes as characters. So every character but
// printable ASCII, and the backslash that would start an escape, is written
// as \u{h}.
func (x *context) mkString(s string) (ast, error) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r > maxChar:
			return nil, fmt.Errorf("z3: string constant %q: character %U is beyond Z3's last, %U", s, r, maxChar)
		case r < 0x20 || r > 0x7e || r == '\\':
			fmt.Fprintf(&b, `\u{%x}`, r)
		default:
			b.WriteRune(r)
		}
	}
	cs := C.CString(b.String())
	defer C.free(unsafe.Pointer(cs))
	return x.result(C.Z3_mk_string(x.c, cs), "string constant")
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
	kConcat
	kLength
	kIndex // first index of b in a from c
	kPrefix
	kSuffix
	kContains
	kExtract // the substring of a at b of length c
	kAt
	kStrLt
	kStrLe
	kToBV32 // integer to 32-bit vector, modulo 2^32
	kSigned // 32-bit vector to integer, as two's complement
	kUnsigned
	kBVAnd
	kBVOr
	kBVXor
	kBVNot
	kBVShl
	kBVAShr
	kBVLShr
	kIsInt
	kFloor
	kDigits
	kNumeral
)

var kindName = [...]string{"neg", "not", "add", "sub", "mul", "div", "mod", "eq", "lt", "le",
	"and", "or", "ite", "concat", "length", "index", "prefix", "suffix", "contains", "extract",
	"at", "str.<", "str.<=", "int2bv", "signed bv2int", "unsigned bv2int", "bvand", "bvor", "bvxor", "bvnot",
	"bvshl", "bvashr", "bvlshr", "is_int", "to_int", "str.from_int", "str.to_int"}

// mk builds the term of the given kind from one, two or three operands.
func (x *context) mk(k kind, args ...ast) (ast, error) {
	r, ok := x.mkArith(k, args)
	if !ok {
		r, ok = x.mkLogic(k, args)
	}
	if !ok {
		r, ok = x.mkStr(k, args)
	}
	if !ok {
		r, ok = x.mkBits(k, args)
	}
	if !ok {
		return nil, fmt.Errorf("z3: unknown constructor %d", k)
	}
	return x.result(r, kindName[k])
}

// mkArith builds the arithmetic and comparison terms; ok is false for another kind.
func (x *context) mkArith(k kind, args []ast) (r ast, ok bool) {
	c := x.c
	switch k {
	case kNeg:
		return C.Z3_mk_unary_minus(c, args[0]), true
	case kAdd:
		return C.Z3_mk_add(c, 2, &args[0]), true
	case kSub:
		return C.Z3_mk_sub(c, 2, &args[0]), true
	case kMul:
		return C.Z3_mk_mul(c, 2, &args[0]), true
	case kDiv:
		return C.Z3_mk_div(c, args[0], args[1]), true
	case kMod:
		return C.Z3_mk_mod(c, args[0], args[1]), true
	case kEq:
		return C.Z3_mk_eq(c, args[0], args[1]), true
	case kLt:
		return C.Z3_mk_lt(c, args[0], args[1]), true
	case kLe:
		return C.Z3_mk_le(c, args[0], args[1]), true
	case kIsInt:
		return C.Z3_mk_is_int(c, args[0]), true
	case kFloor:
		return C.Z3_mk_real2int(c, args[0]), true
	}
	return nil, false
}

// mkLogic builds the Boolean terms; ok is false for another kind.
func (x *context) mkLogic(k kind, args []ast) (r ast, ok bool) {
	c := x.c
	switch k {
	case kNot:
		return C.Z3_mk_not(c, args[0]), true
	case kAnd:
		return C.Z3_mk_and(c, 2, &args[0]), true
	case kOr:
		return C.Z3_mk_or(c, 2, &args[0]), true
	case kIte:
		return C.Z3_mk_ite(c, args[0], args[1], args[2]), true
	}
	return nil, false
}

// mkStr builds the string terms; ok is false for another kind.
func (x *context) mkStr(k kind, args []ast) (r ast, ok bool) {
	c := x.c
	switch k {
	case kConcat:
		return C.Z3_mk_seq_concat(c, 2, &args[0]), true
	case kLength:
		return C.Z3_mk_seq_length(c, args[0]), true
	case kIndex:
		return C.Z3_mk_seq_index(c, args[0], args[1], args[2]), true
	case kPrefix:
		return C.Z3_mk_seq_prefix(c, args[0], args[1]), true
	case kSuffix:
		return C.Z3_mk_seq_suffix(c, args[0], args[1]), true
	case kContains:
		return C.Z3_mk_seq_contains(c, args[0], args[1]), true
	case kExtract:
		return C.Z3_mk_seq_extract(c, args[0], args[1], args[2]), true
	case kAt:
		return C.Z3_mk_seq_at(c, args[0], args[1]), true
	case kStrLt:
		return C.Z3_mk_str_lt(c, args[0], args[1]), true
	case kStrLe:
		return C.Z3_mk_str_le(c, args[0], args[1]), true
	case kDigits:
		return C.Z3_mk_int_to_str(c, args[0]), true
	case kNumeral:
		return C.Z3_mk_str_to_int(c, args[0]), true
	}
	return nil, false
}

// mkBits builds the bit-vector terms and the conversions to and from them; ok is false for another kind.
func (x *context) mkBits(k kind, args []ast) (r ast, ok bool) {
	c := x.c
	switch k {
	case kToBV32:
		return C.Z3_mk_int2bv(c, 32, args[0]), true
	case kSigned:
		return C.Z3_mk_bv2int(c, args[0], true), true
	case kUnsigned:
		return C.Z3_mk_bv2int(c, args[0], false), true
	case kBVAnd:
		return C.Z3_mk_bvand(c, args[0], args[1]), true
	case kBVOr:
		return C.Z3_mk_bvor(c, args[0], args[1]), true
	case kBVXor:
		return C.Z3_mk_bvxor(c, args[0], args[1]), true
	case kBVNot:
		return C.Z3_mk_bvnot(c, args[0]), true
	case kBVShl:
		return C.Z3_mk_bvshl(c, args[0], args[1]), true
	case kBVAShr:
		return C.Z3_mk_bvashr(c, args[0], args[1]), true
	case kBVLShr:
		return C.Z3_mk_bvlshr(c, args[0], args[1]), true
	}
	return nil, false
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

// setParams stops Z3 from installing its own SIGINT handler during checks.
// It gives Z3 no timeout: Solver.check enforces the timeout by
// interrupting the check (see there).
func (x *context) setParams(s solverObj) error {
	p := C.Z3_mk_params(x.c)
	if err := x.err("params"); err != nil {
		return err
	}
	C.Z3_params_inc_ref(x.c, p)
	defer C.Z3_params_dec_ref(x.c, p)
	ctrlC := C.CString("ctrl_c")
	defer C.free(unsafe.Pointer(ctrlC))
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
// interrupt stops the check running in the context, from any goroutine.
func (x *context) interrupt() { C.Z3_interrupt(x.c) }

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

// eval returns a's value in m (with model completion), holding a
// reference the caller releases.
func (x *context) eval(m model, a ast) (ast, error) {
	var out ast
	ok := C.Z3_model_eval(x.c, m.m, a, true, &out)
	if err := x.err("eval"); err != nil {
		return nil, err
	}
	if !ok || out == nil {
		return nil, errors.New("z3: eval: no value")
	}
	C.Z3_inc_ref(x.c, out)
	return out, nil
}

// evalInt returns a's value in m (with model completion). fits is false
// when the value is not a numeral that fits in an int64.
func (x *context) evalInt(m model, a ast) (v int64, fits bool, err error) {
	out, err := x.eval(m, a)
	if err != nil {
		return 0, false, err
	}
	defer C.Z3_dec_ref(x.c, out)
	return x.numeral(out)
}

// numeral returns the value of the integer numeral a; fits is false when it
// does not fit in an int64.
func (x *context) numeral(out ast) (v int64, fits bool, err error) {
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
	out, err := x.eval(m, a)
	if err != nil {
		return false, err
	}
	defer C.Z3_dec_ref(x.c, out)
	switch C.Z3_get_bool_value(x.c, out) {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	return false, errors.New("z3: eval: value is not a boolean constant")
}

// evalString returns a's value in m (with model completion). valid is false
// when a character is no Unicode scalar value (Z3's characters include the
// UTF-16 surrogates), which a Go string cannot hold.
//
// Z3_get_string prints the characters 0x20 to 0x7f as themselves and
// every other one as \u{h}, but it does not escape the backslash: a string holding the six
// characters \u{e9} prints like "é". Z3_get_lstring in 4.8 prints
// characters beyond 255 in a garbled escape. So a printed string without a
// backslash is read as it is, and any other one character by character,
// where the length of the printed text tells a character from an escape.
func (x *context) evalString(m model, a, intSort ast) (s string, valid bool, err error) {
	out, err := x.eval(m, a)
	if err != nil {
		return "", false, err
	}
	defer C.Z3_dec_ref(x.c, out)
	if !C.Z3_is_string(x.c, out) {
		return "", false, errors.New("z3: eval: value is not a string constant")
	}
	text := C.GoString(C.Z3_get_string(x.c, out))
	if !strings.Contains(text, `\`) {
		return text, true, nil
	}
	l, err := x.simplify(C.Z3_mk_seq_length(x.c, out), "string length")
	if err != nil {
		return "", false, err
	}
	n, _, err := x.numeral(l)
	C.Z3_dec_ref(x.c, l)
	if err != nil {
		return "", false, err
	}
	var b strings.Builder
	valid = true
	for i := int64(0); i < n; i++ {
		idx, err := x.mkInt(i, intSort)
		if err != nil {
			return "", false, err
		}
		C.Z3_inc_ref(x.c, idx)
		c, err := x.simplify(C.Z3_mk_seq_at(x.c, out, idx), "character")
		C.Z3_dec_ref(x.c, idx)
		if err != nil {
			return "", false, err
		}
		r, err := x.char(c)
		C.Z3_dec_ref(x.c, c)
		if err != nil {
			return "", false, err
		}
		valid = valid && (r < 0xD800 || r > 0xDFFF)
		b.WriteRune(r)
	}
	return b.String(), valid, nil
}

// simplify returns a, just built by the caller and checked here,
// simplified (to a constant, when a's operands are constants), holding a
// reference the caller releases.
func (x *context) simplify(a ast, what string) (ast, error) {
	if _, err := x.result(a, what); err != nil {
		return nil, err
	}
	C.Z3_inc_ref(x.c, a)
	defer C.Z3_dec_ref(x.c, a)
	v, err := x.result(C.Z3_simplify(x.c, a), "simplify "+what)
	if err != nil {
		return nil, err
	}
	C.Z3_inc_ref(x.c, v)
	return v, nil
}

// char returns the character of the one-character string constant a.
func (x *context) char(a ast) (rune, error) {
	if !C.Z3_is_string(x.c, a) {
		return 0, errors.New("z3: character: not a string constant")
	}
	text := C.GoString(C.Z3_get_string(x.c, a))
	if len(text) == 1 {
		return rune(text[0]), nil
	}
	if h, ok := strings.CutPrefix(text, `\u{`); ok {
		if h, ok := strings.CutSuffix(h, "}"); ok {
			if v, err := strconv.ParseUint(h, 16, 32); err == nil {
				return rune(v), nil
			}
		}
	}
	return 0, fmt.Errorf("z3: character: cannot read %q", text)
}
