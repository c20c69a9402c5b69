package sim_test

import (
	"reflect"
	"testing"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/printer"
)

// TestEventFields: the executor reads _event's fields, and the tags of
// those that may be undefined, from how the event being processed arrived.
func TestEventFields(t *testing.T) {
	field := func(name string) ast.Expr { return &ast.EventField{Field: name} }
	tag := func(name string) ast.Expr { return &ast.EventField{Field: lower.AbsentName(name)} }
	self := model.Meta{SendID: "s1", Self: true}
	raised := model.Meta{Type: model.TypeInternal}
	failed := model.Meta{Type: model.TypePlatform, SendID: "e1"}
	tests := []struct {
		meta model.Meta
		expr ast.Expr
		want sim.Value
	}{
		{model.Meta{}, field(""), sim.BoolValue(true)},
		{model.Meta{}, field("name"), sim.StringValue("e")},
		{model.Meta{}, field("type"), sim.StringValue("external")},
		{model.Meta{}, tag("sendid"), sim.IntValue(ast.AbsentUndefined)},
		{model.Meta{}, tag("origin"), sim.IntValue(ast.AbsentUndefined)},
		{raised, field("type"), sim.StringValue("internal")},
		{raised, tag("origintype"), sim.IntValue(ast.AbsentUndefined)},
		{failed, field("type"), sim.StringValue("platform")},
		{failed, field("sendid"), sim.StringValue("e1")},
		{failed, tag("sendid"), sim.IntValue(ast.AbsentValue)},
		{self, field("type"), sim.StringValue("external")},
		{self, field("origin"), sim.StringValue("#_scxml_setbot-session")},
		{self, tag("origin"), sim.IntValue(ast.AbsentValue)},
		{self, field("origintype"), sim.StringValue("http://www.w3.org/TR/scxml/#SCXMLEventProcessor")},
		{self, tag("invokeid"), sim.IntValue(ast.AbsentUndefined)},
	}
	for _, tt := range tests {
		x := &sim.Executor{Event: &sim.Event{Name: "e", Meta: tt.meta}}
		got, err := x.Eval(tt.expr)
		if err != nil || got != tt.want {
			t.Errorf("%s with %+v = %v, %v; want %v", printer.ExprString(tt.expr), tt.meta, got, err, tt.want)
		}
	}
	// Before the first event, _event is unbound: false, and its fields
	// cannot be read.
	x := &sim.Executor{}
	if got, err := x.Eval(field("")); err != nil || got != sim.BoolValue(false) {
		t.Errorf("_event with no event = %v, %v; want false", got, err)
	}
	if _, err := x.Eval(field("type")); err == nil {
		t.Errorf("_event.type with no event: no error")
	}
}

// TestEmitMeta: raises and sends hand their events to Emit with how they
// arrive: raised (internal, or platform for the errors and done events the
// readers and the flattener raise), sent to the machine itself with their
// send id, or as outputs, which arrive nowhere.
func TestEmitMeta(t *testing.T) {
	b := parseStmts(t, `raise a() id "r"; send b() id "s"; send c() after "1s" id "t"; send d() to "#_parent"; send f()`)
	b.Stmts = append(b.Stmts, &ast.Raise{Event: "error.execution", ID: "e1", Platform: true})
	var got []model.Meta
	x := &sim.Executor{Emit: func(_ sim.Route, ev sim.Event, _, _ string, _ int64) { got = append(got, ev.Meta) }}
	if err := x.Run(b); err != nil {
		t.Fatal(err)
	}
	want := []model.Meta{
		{Type: model.TypeInternal, SendID: "r"},
		{SendID: "s", Self: true},
		{SendID: "t", Self: true},
		{},
		{Self: true},
		{Type: model.TypePlatform, SendID: "e1"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("metas %+v, want %+v", got, want)
	}
}
