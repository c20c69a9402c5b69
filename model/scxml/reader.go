// Package scxml reads W3C SCXML documents into the statechart IR of package
// model. It supports the subset docs/architecture.md §Semantics names; every other
// construct is an error naming the element and its position, never skipped.
//
// Types that cannot be inferred (event parameters, variable ranges) come
// from annotations in setbot's own XML namespace, which SCXML engines
// ignore:
//
//	<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" ...>
//	  <setbot:event name="setTriangleSides">
//	    <setbot:param name="x" type="int[0..100]"/>
//	  </setbot:event>
//	  <datamodel><data id="speed" expr="0" setbot:type="int[0..200]"/></datamodel>
//	  <transition event="go" setbot:id="T1" .../>
//	  <final id="fail" setbot:expect="unreachable"/>
package scxml

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/jexl"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/source"
)

// Namespaces.
const (
	SCXMLNamespace  = "http://www.w3.org/2005/07/scxml"
	SetbotNamespace = "https://setbot.dev/scxml"
)

// Defaults for Options.
const (
	DefaultMaxBytes   = 8 << 20
	DefaultMaxNesting = 64
)

// Options bound what the reader accepts.
type Options struct {
	MaxBytes   int // largest document, and largest file a src names; 0 means DefaultMaxBytes
	MaxNesting int // deepest element nesting; 0 means DefaultMaxNesting
	// CallDepth is how deep calls of script functions nest, and how many
	// times a loop inside one runs, when they are inlined (lower.Inliner);
	// the commands pass the loop bound. 0 means lower.CallBound.
	CallDepth int

	// ReadFile returns the file at rel, a slash-separated path relative
	// to the model's directory, for <data src> and <script src>. ReadFile
	// (the function) reads from the file system; where a model is read
	// from bytes (a file at a commit, say), the caller says where such
	// files come from. Nil: a src is refused.
	ReadFile func(rel string) ([]byte, error)
}

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxNesting <= 0 {
		o.MaxNesting = DefaultMaxNesting
	}
	return o
}

// ReadFile reads the SCXML document at path; a src in it names a file
// relative to path's directory, unless opts.ReadFile says otherwise.
func ReadFile(fset *source.FileSet, path string, opts Options) (*model.Model, source.ErrorList) {
	opts = opts.withDefaults()
	if opts.ReadFile == nil {
		dir := filepath.Dir(path)
		opts.ReadFile = func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))) }
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, readError(path, err)
	}
	if info.Size() > int64(opts.MaxBytes) {
		return nil, tooLarge(path, int(info.Size()), opts.MaxBytes)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, readError(path, err)
	}
	return Read(fset, path, src, opts)
}

// readError reports a file that cannot be read, naming it once.
func readError(path string, err error) source.ErrorList {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return source.ErrorList{{Pos: source.Position{Filename: path}, Msg: "cannot read the file: " + err.Error()}}
}

func tooLarge(name string, size, limit int) source.ErrorList {
	return source.ErrorList{{Pos: source.Position{Filename: name},
		Msg: fmt.Sprintf("document is %d bytes, over the limit of %d", size, limit)}}
}

// Read parses an SCXML document. On success the error list is empty; the
// model is nil whenever there are errors.
func Read(fset *source.FileSet, name string, src []byte, opts Options) (*model.Model, source.ErrorList) {
	opts = opts.withDefaults()
	if len(src) > opts.MaxBytes {
		return nil, tooLarge(name, len(src), opts.MaxBytes)
	}
	file, src, perr := addDocument(fset, name, src)
	if perr != nil {
		return nil, source.ErrorList{perr}
	}
	root, perr := parseDOM(file, src, opts.MaxNesting)
	if perr != nil {
		return nil, source.ErrorList{perr}
	}
	m, d := readMachine(fset, file, opts, invocation{dir: ".", topName: name}, root)
	d.errs.Sort()
	if len(d.errs) > 0 {
		return nil, d.errs
	}
	d.warns.Sort()
	m.Warnings = d.warns
	return m, nil
}

// readDocument reads the document whose <scxml> element is root into a
// model, and gives what the phases after reading need (reading), and the
// diagnostics; the model is nil where root is no <scxml>.
func readDocument(fset *source.FileSet, file *source.File, opts Options, root *element) (*model.Model, *reading, *diag) {
	d := &diag{fset: fset, file: file}
	b := &builder{diag: d, opts: opts, declared: make(map[string]bool), reading: reading{
		low: &lowerer{diag: d, failed: make(map[*ast.Raise]bool)}, ph: newPlaceholders(),
		dataFacts: dataFacts{annotated: make(map[string]bool), inits: make(map[string]initValue), dataReads: make(map[string]source.Pos)}}}
	m := b.build(root)
	rd := b.reading // a copy: the builder, with the document, is dropped
	return m, &rd, d
}

// builder reads one document into a model: the states and transitions,
// the executable content (as placeholders where it is computed), the
// events and functions declared, the data model. What it finds for the
// phases after reading it keeps in reading.
type builder struct {
	*diag
	reading
	opts Options
	m    *model.Model
	// late is set by binding="late": the <data> of a state other than
	// <scxml> is assigned when the state is first entered (readData).
	late bool

	// declared holds the names of the data model (every <data> id, known
	// before any code is read).
	declared map[string]bool

	order   int
	pending []*pendingTransition
	data    []dataElem
	events  []*element
	script  *ast.Block      // top-level <script>, run before the initial entry
	rebinds []*ast.FuncDecl // <assign>s of a function expression (checkRebinds)
	funcEls []*element
	anon    int
}

func (b *builder) src(a attribute, elem string) (*source.File, string) {
	return readSrc(b.diag, b.opts, a, elem)
}

// readSrc reads the file that a src attribute of elem names: a path
// relative to the model, with or without the scheme file:, read with
// opts.ReadFile. The file is added to the file set under its path next to
// the model's, so that errors in it name it. It reports an error to d and
// returns nil when there is no such file.
func readSrc(d *diag, opts Options, a attribute, elem string) (*source.File, string) {
	rel := strings.TrimPrefix(strings.TrimSpace(a.Value), "file:")
	switch {
	case rel == "" || strings.Contains(rel, "://") || path.IsAbs(rel) || filepath.IsAbs(rel):
		d.refusef(a.Offsets0(), "%s %q is not supported: name a file relative to the model (src=\"file:NAME\"), or write the value inline", elem, a.Value)
		return nil, ""
	case opts.ReadFile == nil:
		d.errorf(a.Offsets0(), "%s %q cannot be read: the model was given without its directory; write the value inline", elem, a.Value)
		return nil, ""
	}
	data, err := opts.ReadFile(rel)
	switch {
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		d.errorf(a.Offsets0(), "%s %q: cannot read the file: %v", elem, rel, err)
		return nil, ""
	case len(data) > opts.MaxBytes:
		d.errorf(a.Offsets0(), "%s %q: the file is %d bytes, over the limit of %d", elem, rel, len(data), opts.MaxBytes)
		return nil, ""
	}
	file, data, perr := addDocument(d.fset, path.Join(path.Dir(filepath.ToSlash(d.file.Name())), rel), data)
	if perr != nil {
		d.errs = append(d.errs, perr)
		return nil, ""
	}
	return file, string(data)
}

// pendingTransition is a transition whose targets and code are resolved
// after every state is known.
type pendingTransition struct {
	t       *model.Transition
	el      *element
	targets attribute
	hasTgt  bool
	initial bool // from an initial attribute: targets are ids, nothing else
}

func isSCXML(n string) bool   { return n == SCXMLNamespace || n == "" }
func isSetbot(n string) bool  { return n == SetbotNamespace }
func isForeign(n string) bool { return !isSCXML(n) && !isSetbot(n) }

// checkAttrs reports attributes that are neither allowed for the element
// nor in a foreign namespace (those belong to other tools and are ignored).
func (b *builder) checkAttrs(el *element, allowed ...string) {
	for _, a := range el.Attrs {
		switch {
		case a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns"):
		case a.Name.Space == "":
			if !contains(allowed, a.Name.Local) {
				b.errorf(a.NameOff, "unsupported attribute %q on <%s> (%s): remove it, or move it to a namespace of its own",
					a.Name.Local, el.Name.Local, takes(allowed, false))
			}
		case isSetbot(a.Name.Space):
			if !contains(allowed, "setbot:"+a.Name.Local) {
				b.errorf(a.NameOff, "unknown setbot attribute %q on <%s> (%s): remove it", a.Name.Local, el.Name.Local, takes(allowed, true))
			}
		}
	}
}

// refusedAttrs are attributes the reader recognises only to refuse them
// with a message of their own.
var refusedAttrs = map[string]bool{"src": true}

// takes says which of the allowed attributes an element takes, those in
// setbot's namespace or the others.
func takes(allowed []string, setbot bool) string {
	var names []string
	for _, a := range allowed {
		if strings.HasPrefix(a, "setbot:") == setbot && !refusedAttrs[a] {
			names = append(names, a)
		}
	}
	switch {
	case len(names) == 0 && setbot:
		return "it takes no setbot attribute"
	case len(names) == 0:
		return "it takes no attribute"
	case len(names) == 1:
		return "it takes " + names[0]
	}
	return "it takes " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (b *builder) setbotAttr(el *element, local string) (attribute, bool) {
	for _, a := range el.Attrs {
		if isSetbot(a.Name.Space) && a.Name.Local == local {
			return a, true
		}
	}
	return attribute{}, false
}

func (b *builder) build(root *element) *model.Model {
	b.earlyDrafts(root)
	if !isSCXML(root.Name.Space) || root.Name.Local != "scxml" {
		b.errorf(root.Start, "root element is <%s>, want <scxml>", root.Name.Local)
		return nil
	}
	b.checkAttrs(root, "version", "initial", "name", "datamodel", "binding")
	if a, ok := root.attr("datamodel"); ok && a.Value == "jexl" {
		b.jexl = jexl.New() // Commons SCXML's JEXL, read as a dialect (dialect.go)
	} else if ok && a.Value != "ecmascript" && a.Value != "null" {
		b.refusef(a.Offsets0(), "datamodel %q is not supported: write datamodel=\"ecmascript\" or omit it (setbot reads ecmascript-style expressions)", a.Value)
	} else if !ok {
		b.defaultJEXL(root)
	}
	if a, ok := root.attr("binding"); ok {
		switch a.Value {
		case "early":
		case "late":
			b.late = true
		default:
			b.errorf(a.Offsets0(), "binding %q is no SCXML binding: write binding=\"early\" or binding=\"late\", or omit it (early)", a.Value)
		}
	}
	name := "scxml"
	if a, ok := root.attr("name"); ok {
		name = a.Value
	}
	b.declare(root)
	rs := &model.State{ID: "", Kind: model.Root, Pos: b.pos(root.Start)}
	b.m = model.New(name, b.fset, b.file, rs)
	b.children(rs, root)
	b.defaultInitial(rs, root)

	if b.script != nil && rs.Initial != nil {
		// The global script runs before the initial states are entered.
		rs.Initial.Body = b.script
	}
	b.readEvents()
	b.readFunctions()
	b.scriptVars()
	b.readData()
	b.checkRebinds()
	for _, p := range b.pending {
		b.resolve(p)
	}
	b.historyCycles()
	b.assignIDs()
	return b.m
}

// earlyDrafts reads what the early SCXML working drafts (2005 to 2007)
// wrote otherwise, before the document is read as SCXML 1.0: initialstate
// on <scxml> and name on <data> are read as initial and id, with a
// warning; final on <state> is read by draftFinal.
func (b *builder) earlyDrafts(el *element) {
	if !isSCXML(el.Name.Space) {
		return
	}
	rename := func(old, new, why string) {
		for i, a := range el.Attrs {
			if a.Name.Space != "" || a.Name.Local != old {
				continue
			}
			if _, ok := el.attr(new); ok {
				b.errorf(a.NameOff, "<%s> has both %s and %s (the early working drafts' name for %s): remove %s", el.Name.Local, new, old, new, old)
				return
			}
			b.warnf(a.NameOff, "%s is the name the early SCXML working drafts (2005 to 2007) gave to %s%s, read as %s: rename it %s", old, new, why, new, new)
			el.Attrs[i].Name.Local = new
		}
	}
	switch el.Name.Local {
	case "scxml":
		rename("initialstate", "initial", "")
	case "data":
		rename("name", "id", " on <data>")
	}
	for _, c := range el.Children {
		if c.Name.Local == "state" && isSCXML(c.Name.Space) {
			b.draftFinal(c, el.Name.Local == "scxml")
		}
		b.earlyDrafts(c)
	}
}

// draftFinal reads final="true" on a <state>, which the early working
// drafts (2005 to 2007) wrote for a final state. Apache Commons SCXML 0.x,
// which implements the draft of 5 July 2005, raises the parent's done event
// on entering such a state, still takes its transitions, and leaves ending
// the session to the application (SCXMLSemanticsImpl, executeActions and
// enumerateReachableTransitions). A state with neither children nor
// transitions is therefore a <final> of SCXML 1.0; a top-level one with
// transitions is a <state>, since in either reading the machine's
// behaviour is its transitions' (SCXML 1.0 would end the machine on
// entering it and make them dead). Elsewhere the draft's done event
// ("parent.done") has no SCXML 1.0 reading, and the attribute is refused.
func (b *builder) draftFinal(el *element, topLevel bool) {
	a, ok := el.attr("final")
	if !ok {
		return
	}
	el.Attrs = slices.DeleteFunc(el.Attrs, func(x attribute) bool { return x.Name.Space == "" && x.Name.Local == "final" })
	switch a.Value {
	case "false":
		b.warnf(a.NameOff, "final=\"false\" on <state> is of the early SCXML working drafts (2005 to 2007), and their default: remove the attribute")
		return
	case "true":
	default:
		b.errorf(a.NameOff, "final=%q on <state> is of the early SCXML working drafts (2005 to 2007), which take true or false: write a <final> for a final state", a.Value)
		return
	}
	var states, transitions bool
	for _, c := range el.Children {
		if !isSCXML(c.Name.Space) {
			continue
		}
		switch c.Name.Local {
		case "state", "parallel", "final", "history", "initial":
			states = true
		case "transition":
			transitions = true
		}
	}
	switch {
	case !states && !transitions:
		b.warnf(a.NameOff, "final=\"true\" on <state> is the early SCXML working drafts' (2005 to 2007) final state, read as a <final>: write <final>")
		el.Name.Local = "final"
	case !states && topLevel:
		b.warnf(a.NameOff, "final=\"true\" on a <state> with transitions is of the early SCXML working drafts (2005 to 2007), whose engines "+
			"(Apache Commons SCXML 0.x) keep taking its transitions and leave ending the session to the application; "+
			"read as a <state> (a <final> of SCXML 1.0 would end the machine on entry): remove the attribute")
	default:
		b.errorf(a.NameOff, "final=\"true\" on <state> is of the early SCXML working drafts (2005 to 2007), and on a state with "+
			"child states or inside another state it has no SCXML 1.0 reading (the drafts raise parent.done and keep its transitions): "+
			"write a <final> for a final state (it takes no transitions), or remove the attribute")
	}
}

// rootStateDrafts says where a <transition>, <onentry> or <onexit>
// directly in <scxml> comes from.
// The working draft of 16 May 2008 first gave <scxml> an <initial> as a
// state has one, and the draft of 13 May 2010 took it away; SCXML 1.0
// makes <scxml> a wrapper of the states (W3C www-voice list, January 2012).
const rootStateDrafts = "the SCXML working drafts of 2008 and 2009 read <scxml> as the root state, with an <initial> as a state has, and tools of that time still write it so; SCXML 1.0 makes it a wrapper of the states"

// children reads the child elements of a state-like element.
func (b *builder) children(s *model.State, el *element) {
	for _, c := range el.Children {
		if isForeign(c.Name.Space) {
			continue
		}
		if isSetbot(c.Name.Space) {
			b.setbotChild(s, c)
			continue
		}
		switch c.Name.Local {
		case "state", "parallel", "final":
			if s.Kind == model.Final || s.Kind == model.History {
				b.errorf(c.Start, "<%s> cannot contain <%s>: move the <%s> out", el.Name.Local, c.Name.Local, c.Name.Local)
				continue
			}
			b.state(s, c)
		case "history":
			if s.Kind != model.Compound && s.Kind != model.Parallel {
				b.errorf(c.Start, "<history> must be the child of a <state> or <parallel> that has child states: move it into one")
				continue
			}
			b.history(s, c)
		case "initial":
			b.initialElement(s, c)
		case "transition":
			b.transitionChild(s, c)
		case "onentry", "onexit":
			b.entryExitChild(s, c)
		case "datamodel":
			b.datamodel(s, c)
		case "script":
			b.rootScript(s, el, c)
		case "donedata":
			if s.Kind != model.Final {
				b.errorf(c.Start, "<donedata> belongs in a <final>: move it there, or remove it")
				continue
			}
			b.doneData(s, c)
		case "invoke":
			if s.Kind == model.Root || s.Kind == model.Final {
				b.errorf(c.Start, "<invoke> belongs in a <state> or <parallel>: move it there")
				continue
			}
			b.invoke(s, c)
		default:
			b.errorf(c.Start, "unexpected <%s> in <%s>: %s", c.Name.Local, el.Name.Local, misplaced(c.Name.Local))
		}
	}
}

// setbotChild reads a child of state s in setbot's namespace: a
// <setbot:event> or a <setbot:function>, directly in <scxml>.
func (b *builder) setbotChild(s *model.State, c *element) {
	switch {
	case c.Name.Local == "event" && s.Kind == model.Root:
		b.events = append(b.events, c)
	case c.Name.Local == "function" && s.Kind == model.Root:
		b.funcEls = append(b.funcEls, c)
	default:
		b.errorf(c.Start, "unknown or misplaced setbot element <%s>: the setbot elements here are <setbot:event> and <setbot:function>, directly in <scxml>", c.Name.Local)
	}
}

// transitionChild reads a <transition> of state s, which neither <scxml>
// nor a <final> has.
func (b *builder) transitionChild(s *model.State, c *element) {
	if s.Kind == model.Root {
		b.errorf(c.Start, "<transition> is not allowed in <scxml> (%s): wrap the states in a <state> and put the transition there", rootStateDrafts)
		return
	}
	if s.Kind == model.Final {
		b.errorf(c.Start, "<transition> is not allowed in <final>: make it a <state> to leave it")
		return
	}
	b.transition(s, c)
}

// entryExitChild reads an <onentry> or <onexit> of state s, which
// <scxml> does not have.
func (b *builder) entryExitChild(s *model.State, c *element) {
	if c.Name.Local == "onentry" {
		if s.Kind == model.Root {
			b.errorf(c.Start, "<onentry> is not allowed in <scxml> (%s): move it into a <state>, or its code into a <script> directly in <scxml>", rootStateDrafts)
			return
		}
		b.checkAttrs(c)
		s.OnEntry = append(s.OnEntry, b.block(c))
		return
	}
	if s.Kind == model.Root {
		b.errorf(c.Start, "<onexit> is not allowed in <scxml> (%s): move it into a <state>", rootStateDrafts)
		return
	}
	b.checkAttrs(c)
	s.OnExit = append(s.OnExit, b.block(c))
}

// datamodel collects the <data> of a <datamodel> of state s, read later
// (readData).
func (b *builder) datamodel(s *model.State, c *element) {
	b.checkAttrs(c)
	for _, d := range c.Children {
		if isForeign(d.Name.Space) {
			continue
		}
		if !isSCXML(d.Name.Space) || d.Name.Local != "data" {
			b.errorf(d.Start, "unexpected <%s> in <datamodel>: a <datamodel> holds only <data>", d.Name.Local)
			continue
		}
		b.data = append(b.data, dataElem{d, s})
	}
}

// rootScript reads a <script> child c of el, whose state is s: only
// <scxml> has one, run when the machine starts.
func (b *builder) rootScript(s *model.State, el, c *element) {
	if s.Kind != model.Root {
		b.errorf(c.Start, "<script> is only allowed in executable content or directly in <scxml>: move it into an <onentry>, <onexit> or <transition>")
		return
	}
	// A script holds no <send> element: it is lowered at once.
	blk := &ast.Block{Stmts: b.low.lowerBlock(b.content([]*element{c}, el.Name.Local))}
	if b.script == nil {
		b.script = blk
	} else {
		b.script.Stmts = append(b.script.Stmts, blk.Stmts...)
	}
}

func (b *builder) newState(parent *model.State, el *element, kind model.StateKind) *model.State {
	b.order++
	s := &model.State{Kind: kind, Pos: b.pos(el.Start), Parent: parent, Order: b.order}
	if a, ok := el.attr("id"); ok && strings.TrimSpace(a.Value) != "" {
		s.ID = a.Value
		if strings.ContainsAny(a.Value, " \t\n") {
			b.errorf(a.Offsets0(), "state id %q contains white space: write it as one word", a.Value)
		}
	} else {
		b.anon++
		s.ID = fmt.Sprintf("_anon%d", b.anon)
	}
	if !b.m.AddState(s) {
		b.errorf(el.Start, "duplicate state id %q: give each state its own id", s.ID)
	}
	if a, ok := b.setbotAttr(el, "expect"); ok {
		if strings.TrimSpace(a.Value) == ExpectUnreachable {
			s.ExpectUnreachable = true
		} else {
			b.errorf(a.Offsets0(), "setbot:expect %q is not an expectation setbot knows: write setbot:expect=%q (no execution is meant to enter the state)", a.Value, ExpectUnreachable)
		}
	}
	parent.Children = append(parent.Children, s)
	return s
}

// ExpectUnreachable is the value of setbot:expect on a state that no
// execution is meant to enter (a W3C test's fail state): the gate reports
// it as expected, and gates it only when the machine comes to enter it.
const ExpectUnreachable = "unreachable"

func (b *builder) state(parent *model.State, el *element) {
	switch el.Name.Local {
	case "state":
		b.checkAttrs(el, "id", "initial", "setbot:expect")
		kind := model.Atomic
		for _, c := range el.Children {
			if isSCXML(c.Name.Space) && (c.Name.Local == "state" || c.Name.Local == "parallel" || c.Name.Local == "final") {
				kind = model.Compound
			}
		}
		s := b.newState(parent, el, kind)
		b.children(s, el)
		if kind == model.Compound {
			b.defaultInitial(s, el)
		} else if a, ok := el.attr("initial"); ok {
			b.errorf(a.Offsets0(), "initial attribute on atomic state %q: remove it, or give the state child states", s.ID)
		}
	case "parallel":
		b.checkAttrs(el, "id", "setbot:expect")
		s := b.newState(parent, el, model.Parallel)
		b.children(s, el)
		if len(s.ChildStates()) == 0 {
			b.errorf(el.Start, "<parallel> %q has no child states: give it some, or make it a <state>", s.ID)
		}
	case "final":
		b.checkAttrs(el, "id", "setbot:expect")
		s := b.newState(parent, el, model.Final)
		b.children(s, el)
	}
}

func (b *builder) history(parent *model.State, el *element) {
	b.checkAttrs(el, "id", "type")
	h := b.newState(parent, el, model.History)
	if a, ok := el.attr("type"); ok {
		switch a.Value {
		case "deep":
			h.Deep = true
		case "shallow":
		default:
			b.errorf(a.Offsets0(), "history type %q is not valid: write type=\"shallow\" or type=\"deep\"", a.Value)
		}
	}
	var n int
	for _, c := range el.Children {
		if isForeign(c.Name.Space) {
			continue
		}
		if c.Name.Local != "transition" || !isSCXML(c.Name.Space) {
			b.errorf(c.Start, "unexpected <%s> in <history>: a <history> holds only its default <transition>", c.Name.Local)
			continue
		}
		n++
		b.transition(h, c)
	}
	if n != 1 {
		b.errorf(el.Start, "<history> %q needs exactly one default <transition>, has %d", h.ID, n)
	}
}

// initialElement reads <initial><transition target="..."/></initial>.
func (b *builder) initialElement(s *model.State, el *element) {
	b.checkAttrs(el, "id")
	if s.Initial != nil {
		b.errorf(el.Start, "state %q has more than one <initial>: keep one", s.ID)
		return
	}
	var tr *element
	for _, c := range el.Children {
		if isForeign(c.Name.Space) {
			continue
		}
		if c.Name.Local != "transition" || tr != nil {
			b.errorf(c.Start, "<initial> holds exactly one <transition>: remove the <%s>", c.Name.Local)
			continue
		}
		tr = c
	}
	if tr == nil {
		b.errorf(el.Start, "<initial> without a <transition>: add <transition target=\"...\"/>")
		return
	}
	// event and cond have messages of their own; an empty cond is true,
	// as on any transition.
	rest := *tr
	rest.Attrs = nil
	for _, a := range tr.Attrs {
		if a.Name.Space != "" || a.Name.Local != "event" && a.Name.Local != "cond" {
			rest.Attrs = append(rest.Attrs, a)
		} else if a.Name.Local == "event" || strings.TrimSpace(a.Value) != "" {
			b.errorf(a.NameOff, "the <transition> of <initial> takes no %s: remove it (it is taken on default entry, unconditionally)", a.Name.Local)
		}
	}
	b.checkAttrs(&rest, "target", "type", "setbot:id")
	if a, ok := tr.attr("type"); ok {
		// The initial transition's source is the compound state and its
		// targets are descendants, taken only on default entry: internal
		// and external enter the same states, so the value is only checked
		// (itemis CREATE writes it on every initial transition).
		b.transitionType(a)
	}
	if _, ok := tr.attr("target"); !ok {
		b.errorf(tr.Start, "the <transition> of <initial> needs a target: name the state to enter")
		return
	}
	t := &model.Transition{Source: s, Pos: b.pos(tr.Start), Body: b.block(tr)}
	a, _ := tr.attr("target")
	s.Initial = t
	b.pending = append(b.pending, &pendingTransition{t: t, el: tr, targets: a, hasTgt: true})
}

// defaultInitial sets the initial transition of a compound state (or the
// root) from its initial attribute, or its first child state.
func (b *builder) defaultInitial(s *model.State, el *element) {
	a, hasAttr := el.attr("initial")
	if hasAttr && s.Initial != nil {
		b.errorf(a.Offsets0(), "state %q has both an initial attribute and an <initial> element: keep one", s.ID)
		return
	}
	if s.Initial != nil {
		return
	}
	t := &model.Transition{Source: s, Pos: b.pos(el.Start), Body: &ast.Block{}}
	s.Initial = t
	if hasAttr {
		b.pending = append(b.pending, &pendingTransition{t: t, el: el, targets: a, hasTgt: true, initial: true})
		return
	}
	kids := s.ChildStates()
	if len(kids) == 0 {
		// SCXML's schema allows it, and its algorithm then enters no
		// state: a machine that never does anything.
		b.refusef(el.Start, "<%s> has no states: add a <state> (SCXML allows a document without one, but its machine never does anything, so there is nothing to analyse)", el.Name.Local)
		return
	}
	t.Targets = []*model.State{kids[0]}
}

func (b *builder) transition(s *model.State, el *element) {
	b.checkAttrs(el, "event", "cond", "target", "type", "setbot:id")
	t := &model.Transition{Source: s, Pos: b.pos(el.Start)}
	if a, ok := el.attr("event"); ok {
		t.Events = strings.Fields(a.Value)
		if len(t.Events) == 0 {
			// The algorithm of SCXML's appendix D takes a transition whose
			// event list is empty for an eventless one (not t.event).
			b.warnf(a.Offsets0(), "empty event attribute, read as an eventless transition (SCXML's algorithm takes an empty event list for none): omit the attribute")
		}
	}
	if a, ok := el.attr("type"); ok {
		t.Type = b.transitionType(a)
	}
	// An empty cond is true, as SCXML engines read it (itemis CREATE
	// writes cond=""): the transition is the unconditional one.
	cond, hasCond := el.attr("cond")
	hasCond = hasCond && strings.TrimSpace(cond.Value) != ""
	if s.Kind == model.History && (len(t.Events) > 0 || hasCond) {
		b.errorf(el.Start, "the default transition of a <history> takes no event or cond: remove them")
	} else if word, bad := parser.IllegalExpr(cond.Value); hasCond && bad {
		b.warnf(cond.Offsets0(), "cond %q is no ECMAScript expression (it begins with %s): setbot takes it as false and raises %s each time it is evaluated, "+
			"as the SCXML specification requires", strings.TrimSpace(cond.Value), word, model.ErrorExecution)
		t.Cond, t.CondFails = &ast.BoolLit{ValuePos: b.pos(cond.Offsets0()), Value: false}, true
	} else if hasCond {
		t.Cond = b.expr(cond)
	}
	t.Body = b.block(el)
	s.Transitions = append(s.Transitions, t)
	a, hasTgt := el.attr("target")
	b.pending = append(b.pending, &pendingTransition{t: t, el: el, targets: a, hasTgt: hasTgt})
}

// transitionType reads the type attribute of a <transition>.
func (b *builder) transitionType(a attribute) model.TransitionType {
	switch a.Value {
	case "internal":
		return model.TransitionInternal
	case "external":
	default:
		b.errorf(a.Offsets0(), "transition type %q is not valid: write type=\"internal\" or type=\"external\"", a.Value)
	}
	return model.TransitionExternal
}

// Offsets0 is the file offset of an attribute value's first byte (or of the
// empty value).
func (a attribute) Offsets0() int {
	if len(a.Offsets) > 0 {
		return a.Offsets[0]
	}
	return a.NameOff
}

// resolve binds target ids to states and checks where they may point.
func (b *builder) resolve(p *pendingTransition) {
	t := p.t
	if !p.hasTgt {
		if t.Source.Kind == model.History {
			b.errorf(p.el.Start, "the default transition of <history> %q needs a target: name the states to enter when there is no history", t.Source.ID)
		}
		return
	}
	ids := strings.Fields(p.targets.Value)
	if len(ids) == 0 {
		b.errorf(p.targets.Offsets0(), "empty target: omit it for a targetless transition")
		return
	}
	for _, id := range ids {
		st := b.m.State(id)
		if st == nil {
			b.errorf(p.targets.Offsets0(), "unknown target state %q", id)
			continue
		}
		t.Targets = append(t.Targets, st)
	}
	if t != t.Source.Initial && t.Source.Kind != model.History {
		return
	}
	// An initial (or a history default) must lead into its own state.
	owner := t.Source
	if owner.Kind == model.History {
		owner = owner.Parent
	}
	for _, st := range t.Targets {
		if !st.IsDescendant(owner) {
			b.errorf(p.targets.Offsets0(), "initial target %q is not a descendant of %q", st.ID, displayID(owner))
		}
	}
}

// historyCycles refuses history states whose default transitions lead
// from one to another in a cycle: entering one would never end.
func (b *builder) historyCycles() {
	reported := make(map[*model.State]bool)
	for _, h := range b.m.States() {
		if h.Kind != model.History || reported[h] {
			continue
		}
		path := []*model.State{h}
		on := map[*model.State]int{h: 0}
		var walk func(s *model.State) bool
		walk = func(s *model.State) bool {
			if len(s.Transitions) == 0 {
				return false
			}
			for _, t := range s.Transitions[0].Targets {
				if t.Kind != model.History {
					continue
				}
				if i, ok := on[t]; ok {
					cycle := append(stateIDs(path[i:]), t.ID)
					for _, c := range path[i:] {
						reported[c] = true
					}
					b.errs.Add(b.m.Position(path[i].Pos), "the default transitions of history states lead in a cycle: %s; make one of them target a state that is not a history",
						strings.Join(cycle, " -> "))
					return true
				}
				on[t] = len(path)
				path = append(path, t)
				if walk(t) {
					return true
				}
				path = path[:len(path)-1]
				delete(on, t)
			}
			return false
		}
		walk(h)
	}
}

func stateIDs(list []*model.State) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.ID
	}
	return out
}

func displayID(s *model.State) string {
	if s.Kind == model.Root {
		return "scxml"
	}
	return s.ID
}

// assignIDs gives every transition its stable identity and document order.
func (b *builder) assignIDs() {
	seen := make(map[string]int)
	order := 0
	explicit := make(map[string]int)
	for _, s := range b.m.States() {
		if t := s.Initial; t != nil {
			t.ID = fmt.Sprintf("%s:initial>%s", displayID(s), strings.Join(stateIDs(t.Targets), " "))
		}
		for _, t := range s.Transitions {
			order++
			t.Order = order
			base := fmt.Sprintf("%s:%s>%s", s.ID, strings.Join(t.Events, " "), strings.Join(stateIDs(t.Targets), " "))
			seen[base]++
			t.ID = base
			if n := seen[base]; n > 1 {
				t.ID = fmt.Sprintf("%s#%d", base, n)
			}
		}
	}
	for _, p := range b.pending {
		a, ok := b.setbotAttr(p.el, "id")
		if !ok || p.initial {
			continue
		}
		if strings.TrimSpace(a.Value) == "" || strings.ContainsAny(a.Value, " \t\n") {
			b.errorf(a.Offsets0(), "setbot:id %q must be a non-empty word", a.Value)
			continue
		}
		if prev, dup := explicit[a.Value]; dup {
			b.errorf(a.Offsets0(), "duplicate setbot:id %q (first at %s)", a.Value, b.file.Position(b.file.Pos(prev)))
			continue
		}
		explicit[a.Value] = a.Offsets0()
		p.t.ID = a.Value
	}
}

// readEvents reads the <setbot:event> declarations.
func (b *builder) readEvents() {
	for _, el := range b.events {
		b.checkAttrs(el, "name", "input")
		a, ok := el.attr("name")
		if !ok || strings.TrimSpace(a.Value) == "" {
			b.errorf(el.Start, "<setbot:event> needs a name")
			continue
		}
		if b.m.EventByName(a.Value) != nil {
			b.errorf(a.Offsets0(), "event %q declared twice", a.Value)
			continue
		}
		ev := &model.Event{Name: a.Value, Declared: true, Pos: b.pos(el.Start)}
		if in, ok := el.attr("input"); ok {
			switch in.Value {
			case "true":
				ev.Kinds |= model.Input
			case "false":
			default:
				b.errorf(in.Offsets0(), "input=%q (want true or false)", in.Value)
			}
		}
		for _, c := range el.Children {
			if !isSetbot(c.Name.Space) || c.Name.Local != "param" {
				if !isForeign(c.Name.Space) {
					b.errorf(c.Start, "unexpected <%s> in <setbot:event> (only <setbot:param>)", c.Name.Local)
				}
				continue
			}
			b.checkAttrs(c, "name", "type")
			pn, ok1 := c.attr("name")
			pt, ok2 := c.attr("type")
			if !ok1 || !ok2 {
				b.errorf(c.Start, "<setbot:param> needs name and type")
				continue
			}
			typ, err := ast.ParseType(pt.Value)
			if err != nil {
				b.errorf(pt.Offsets0(), "%v", err)
				continue
			}
			if _, dup := ev.Param(pn.Value); dup {
				b.errorf(pn.Offsets0(), "parameter %q declared twice", pn.Value)
				continue
			}
			ev.Params = append(ev.Params, model.Param{Name: pn.Value, Type: typ})
		}
		sort.Slice(ev.Params, func(i, j int) bool { return ev.Params[i].Name < ev.Params[j].Name })
		b.m.AddEvent(ev)
	}
}
