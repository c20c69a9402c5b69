package scxml

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/jexl"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/source"
)

// Reading a machine runs in phases, each a function (or a small type of
// its own) given only what it needs, in this order:
//
//	readDocument      reader.go     the XML into the model, and what the phases below need (reading)
//	readInvokes       invoked.go    the machines the <invoke>s start, read as the document is
//	expandDynamic     dynamic.go    computed sends and cancels written out as fixed ones, every block lowered
//	failingFunctions  unbound.go    functions that read a name bound nowhere end there
//	unboundConds      unbound.go    conds that read a name bound nowhere made failing
//	functionTypes     funcdata.go   typeof of a function
//	stringifyKnown    stringify.go  JSON.stringify of an empty object
//	dateVars          date.go       new Date() held as its time value
//	inlineCalls       inline.go     calls of script functions and built-ins inlined
//	hostInitTypes     data.go       <data> values that call the host typed
//	declareCode       declare.go    failing elements, events, input parameters, forwards, declared names
//	checker           check.go      type inference to a fixpoint, checking, and lowering to the IR
//
// Every phase reports to one diag, so that errors and warnings keep the
// order in which the phases ran. The lowerer (lower.go) serves from
// reading to the checker, which lowers again the blocks that reads past
// the end of an array make fail (pastEnd).

// readMachine reads the machine whose <scxml> element is root, in file,
// read as inv says, and runs the phases after reading on it. It gives the
// model (nil where root is no <scxml>) and what was reported.
func readMachine(fset *source.FileSet, file *source.File, opts Options, inv invocation, root *element) (*model.Model, *diag) {
	m, rd, d := readDocument(fset, file, opts, root)
	if m == nil {
		return nil, d
	}
	code := func() []code { return allCode(m, inv) }
	readInvokes(d, m, opts, inv, rd.invokes, func() *values { return collectValues(m, rd.ph, code(), rd.funcs) })
	asRead, compared := expandDynamic(d, m, code(), rd.funcs, rd.ph, rd.low)
	// The phases that follow work on the model alone: they do not hold
	// the document (its elements, with the decoded text of each and the
	// offset of every byte of it) while they check and lower its code.
	rd.invokes, rd.ph = nil, nil
	fails := failingFunctions(m, rd.funcs, rd.externals, code())
	unboundConds(d, m, rd.funcs, rd.externals, fails, code())
	functionTypes(m, rd.funcs, code())
	stringifyKnown(m, code())
	hosts := dateVars(d, m, rd.funcs, code())
	for name, h := range rd.dataHosts {
		if hosts == nil {
			hosts = make(map[string]*lower.HostFunction)
		}
		if hosts[name] == nil {
			hosts[name] = h
		}
	}
	inlineCalls(d, m, code(), rd.funcs, rd.externals, hosts, opts.CallDepth)
	hostInitTypes(d, m, rd.hostInits)
	all, pe, untyped := declareCode(d, m, inv, rd.low, asRead, compared, rd.funcs, rd.externals, rd.commonsVars)
	ck := &checker{diag: d, dataFacts: rd.dataFacts, m: m, inv: inv, jexl: rd.jexl, grown: make(map[string]bool), pe: pe, untyped: untyped}
	ck.checkCode(all)
	return m, d
}

// reading is what reading a document gives the phases after it, besides
// the model: each phase takes the fields it names.
type reading struct {
	// invokes are the <invoke> elements read, whose children are read
	// once the parent's variables are known (readInvokes).
	invokes []pendingInvoke
	// ph holds the placeholders of sends and cancels with computed
	// attributes, and the blocks that hold them (expandDynamic).
	ph *placeholders
	// low lowers the blocks of executable content, and holds the raises
	// that stand for failing elements; reading lowers the top-level
	// <script>, expandDynamic every other block, and declareCode lowers
	// some again.
	low *lowerer
	// funcs are the functions the scripts declare, externals the black-box
	// functions declared with setbot:function (unboundConds, functionTypes,
	// inlineCalls and declareCode).
	funcs     map[string]*ast.FuncDecl
	externals map[string]*lower.Signature
	// jexl reads the expressions of a model with datamodel="jexl"
	// (dialect.go); commonsVars are the names Commons SCXML's <var>
	// actions declare (declareCode declares them).
	jexl        *jexl.Dialect
	commonsVars []*ast.Ident
	// dataFacts is what readData gives the checker.
	dataFacts
}
